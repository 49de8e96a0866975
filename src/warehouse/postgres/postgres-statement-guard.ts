/**
 * What nao refuses on PostgreSQL whatever its role may do (a superuser's included, see
 * postgres-role.ts): a statement that is not a query, and names that reach the server's
 * files, settings, other sessions or other servers. Two looks: the text before it is sent
 * (statementRefusal), then the server's own plan of it, `EXPLAIN (VERBOSE, FORMAT JSON)`,
 * where views are expanded and every function and relation the query touches is named by the
 * server (postgresPlanRefusal). A statement the server cannot plan is no query.
 */
import { type StatementRules, sqlReadings, statementRefusal } from '../sql-tokens.js';

export const POSTGRES_EXPLAIN_PREFIX = 'EXPLAIN (VERBOSE, FORMAT JSON) ';

/**
 * Functions that read or write server files (pg_read_file, lo_export…), run SQL text of their
 * own (query_to_xml, ts_stat, dblink), change settings (set_config, pg_reload_conf), signal other
 * sessions or drive replication and backups; and relations holding password hashes, server
 * configuration or raw statistics.
 */
const DENIED_NAMES = new RegExp(
  '^(' +
    [
      'pg_read_file',
      'pg_read_binary_file',
      'pg_stat_file',
      'pg_ls_\\w*',
      'pg_file_\\w*',
      'pg_logdir_ls',
      'lo_(import|export|from_bytea|put|get|create|creat|unlink|open|close|truncate|truncate64|lseek|lseek64|tell|tell64)',
      'loread',
      'lowrite',
      'dblink\\w*',
      'query_to_xml\\w*',
      'cursor_to_xml\\w*',
      'ts_stat',
      'set_config',
      'pg_reload_conf',
      'pg_rotate_logfile\\w*',
      'pg_current_logfile',
      'pg_promote',
      'pg_(terminate|cancel|signal)_backend',
      'pg_log_backend_memory_contexts',
      'pg_create_\\w+',
      'pg_drop_replication_slot',
      'pg_replication_\\w+',
      'pg_logical_\\w+',
      'pg_copy_\\w+_slot',
      'pg_(start|stop)_backup',
      'pg_backup_\\w+',
      'pg_switch_(wal|xlog)',
      'pg_wal_replay_\\w+',
      'pg_stat_reset\\w*',
      'pg_import_system_collations',
      'pg_authid',
      'pg_shadow',
      'pg_user_mappings?',
      'pg_hba_file_rules',
      'pg_ident_file_mappings',
      'pg_file_settings',
      'pg_largeobject(_metadata)?',
      'pg_statistic',
      'pg_subscription',
    ].join('|') +
    ')$',
);

const RULES: StatementRules = {
  dialect: 'postgres',
  queryStarts: new Set(['select', 'with', 'values', 'table']),
  deniedNames: DENIED_NAMES,
  deniedReason: "it reaches the server's files, settings, passwords or other sessions",
};

/** Why nao refuses `sql` on PostgreSQL before sending it; undefined when it may be planned. */
export function postgresStatementRefusal(sql: string): string | undefined {
  return statementRefusal(sql, RULES);
}

/** Plan nodes of a statement that writes (INSERT/UPDATE/DELETE/MERGE, also in a WITH) or locks rows. */
const WRITING_NODES = new Set(['ModifyTable', 'LockRows']);

/**
 * Why nao refuses the statement whose `EXPLAIN (VERBOSE, FORMAT JSON)` answered `planText`;
 * undefined when its plan only reads, through nothing of the denied names.
 */
export function postgresPlanRefusal(planText: string): string | undefined {
  let plan: unknown;
  try {
    plan = JSON.parse(planText);
  } catch {
    return 'PostgreSQL gave no plan nao can read for this statement';
  }
  let refusal: string | undefined;
  const visit = (value: unknown, key: string | undefined): void => {
    if (refusal !== undefined) return;
    if (typeof value === 'string') {
      refusal = stringRefusal(value, key);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
    } else if (value !== null && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      if (typeof node['Node Type'] === 'string' && WRITING_NODES.has(node['Node Type'])) {
        refusal = `PostgreSQL's plan of the statement writes or locks rows (${node['Node Type']}${typeof node.Operation === 'string' ? `: ${node.Operation}` : ''})`;
        return;
      }
      for (const [name, child] of Object.entries(node)) visit(child, name);
    }
  };
  visit(plan, undefined);
  return refusal;
}

/** A string of the plan: a bare name (of a relation, function, schema…) or an expression as the server prints it. */
function stringRefusal(text: string, key: string | undefined): string | undefined {
  if (key === 'Relation Name' || key === 'Function Name' || key === 'Alias' || key === 'Schema') {
    return DENIED_NAMES.test(text.toLowerCase())
      ? `the statement reaches ${text}: ${RULES.deniedReason}`
      : undefined;
  }
  if (key === 'Node Type' || key === 'Operation' || key === 'Strategy' || key === 'Join Type')
    return undefined;
  let readings: ReturnType<typeof sqlReadings>;
  try {
    readings = sqlReadings(text, 'postgres');
  } catch {
    return `nao cannot read PostgreSQL's plan of the statement (${text.slice(0, 80)})`;
  }
  for (const tokens of readings) {
    for (const token of tokens) {
      if ((token.kind === 'word' || token.kind === 'quoted') && DENIED_NAMES.test(token.text)) {
        return `the statement reaches ${token.text}: ${RULES.deniedReason}`;
      }
    }
  }
  return undefined;
}
