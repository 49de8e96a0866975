/**
 * What nao refuses on MySQL/MariaDB whatever its account may do (see mysql-role.ts): a
 * statement that is not a query (`SET GLOBAL`, `LOAD DATA`, `CALL`, `HANDLER`…), `SELECT … INTO`
 * (OUTFILE, DUMPFILE, variables), executable comments, and names that reach the server's files
 * or its account tables. The server's own reading follows: it prepares the statement, and only
 * one that returns rows runs (mysql-database.ts).
 */
import { type StatementRules, statementRefusal } from '../sql-tokens.js';

const RULES: StatementRules = {
  dialect: 'mysql',
  queryStarts: new Set(['select', 'with', 'values', 'table', 'show', 'describe', 'desc']),
  // LOAD_FILE reads a server file; sys_* are the lib_mysqludf_sys functions that run commands; the
  // `mysql` schema holds accounts and password hashes (user, global_priv), the server's logs and
  // settings; the process list shows other sessions' statements.
  deniedNames: /^(load_file|sys_(exec|eval|get|set|bineval)|mysql|global_priv|processlist)$/,
  deniedReason: "it reaches the server's files, accounts or other sessions",
  // Password hashes (SHOW GRANTS of another account, SHOW CREATE USER) and other sessions' statements.
  deniedStatements: ['show grants', 'show create user', 'show processlist', 'show full processlist'],
};

/** Why nao refuses `sql` on MySQL/MariaDB before sending it; undefined when the server may prepare it. */
export function mysqlStatementRefusal(sql: string): string | undefined {
  return statementRefusal(sql, RULES);
}
