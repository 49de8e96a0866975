/**
 * What the Trino fake answers to `EXPLAIN (TYPE LOGICAL, FORMAT JSON) <statement>`, as Trino
 * does: a query's logical plan as JSON, with writer nodes (TableWriter, TableCommit, TableDelete,
 * MergeWriter…) for a statement that changes data, and the statement's own text for the
 * statements Trino runs as tasks without a plan (DDL, SET SESSION, USE, transactions, grants).
 * The class is read from the leading keywords, as Trino's grammar tells statements apart.
 */

export type StatementClass = { kind: 'query' } | { kind: 'write'; nodes: string[] } | { kind: 'task' };

/** The statement without leading comments and parentheses, upper-cased words separated by one space. */
function words(sql: string): string {
  let text = sql;
  for (;;) {
    const stripped = text
      .replace(/^\s+/, '')
      .replace(/^--[^\n]*\n?/, '')
      .replace(/^\/\*[\s\S]*?\*\//, '');
    if (stripped === text) break;
    text = stripped;
  }
  return text.replace(/\s+/g, ' ').toUpperCase();
}

export function classifyStatement(sql: string): StatementClass {
  const text = words(sql);
  const lead = /^\(*\s*([A-Z]+)/.exec(text)?.[1] ?? '';
  if (text.startsWith('EXPLAIN ANALYZE'))
    return classifyStatement(sql.replace(/^[\s\S]*?EXPLAIN\s+ANALYZE(\s+VERBOSE)?/i, ''));
  if (['SELECT', 'WITH', 'VALUES', 'TABLE', 'SHOW', 'DESCRIBE', 'EXPLAIN'].includes(lead))
    return { kind: 'query' };
  if (lead === 'INSERT') return { kind: 'write', nodes: ['TableCommit', 'TableWriter'] };
  if (lead === 'UPDATE' || lead === 'MERGE') return { kind: 'write', nodes: ['TableCommit', 'MergeWriter'] };
  // A DELETE of whole tables or partitions is a metadata delete, planned as one TableDelete node.
  if (lead === 'DELETE') {
    return / WHERE /.test(text)
      ? { kind: 'write', nodes: ['TableCommit', 'MergeWriter'] }
      : { kind: 'write', nodes: ['TableDelete'] };
  }
  if (
    lead === 'CREATE' &&
    / AS \(*\s*(SELECT|WITH|VALUES|TABLE)\b/.test(text) &&
    !/^CREATE (OR REPLACE )?VIEW/.test(text)
  ) {
    return { kind: 'write', nodes: ['TableCommit', 'TableWriter'] };
  }
  if (text.startsWith('REFRESH MATERIALIZED VIEW'))
    return { kind: 'write', nodes: ['TableCommit', 'RefreshMaterializedView'] };
  if (/^ALTER TABLE \S+ EXECUTE/.test(text)) return { kind: 'write', nodes: ['TableCommit', 'TableExecute'] };
  return { kind: 'task' };
}

function planNode(name: string, children: object[]): object {
  return {
    id: String(children.length),
    name,
    descriptor: {},
    outputs: [],
    details: [],
    estimates: [],
    children,
  };
}

/** The text of the EXPLAIN's single `Query Plan` value. */
export function explainText(sql: string, statementClass: StatementClass): string {
  if (statementClass.kind === 'task') return sql.trim();
  const leaf = planNode('TableScan', []);
  const nodes = statementClass.kind === 'write' ? statementClass.nodes : ['Project'];
  const body = nodes.reduceRight<object>((child, name) => planNode(name, [child]), leaf);
  return JSON.stringify(planNode('Output', [body]), null, 3);
}
