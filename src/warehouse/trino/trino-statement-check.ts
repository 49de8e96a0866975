/**
 * Trino's own verdict on whether a statement only reads: nao asks the coordinator for
 * `EXPLAIN (TYPE LOGICAL, FORMAT JSON) <statement>` before running it. A query's answer is its
 * plan as JSON; a statement that writes plans a writer node (TableWriter, TableCommit,
 * TableDelete, TableUpdate, TableExecute, MergeWriter, RefreshMaterializedView…); a DDL,
 * session, transaction or access-control statement has no plan and is answered with its own
 * text. Only a plan without writer nodes runs.
 */

export const TRINO_EXPLAIN_PREFIX = 'EXPLAIN (TYPE LOGICAL, FORMAT JSON) ';

/** Plan nodes that change data: every `Table…` node but the scans and table functions, and merges. */
const WRITER_NODE = /^(Table(?!Scan|Function)|Merge|RefreshMaterializedView|Statistic)/;

interface PlanNode {
  name?: unknown;
  children?: unknown;
}

/**
 * Why the statement is not a read-only query, from the text of its EXPLAIN; undefined when it
 * only reads. `engine` is who planned it, as the message names it: Trino, or Athena (whose
 * engine is Trino's).
 */
export function refusalOfPlan(planText: string, engine: 'Trino' | 'Athena'): string | undefined {
  let plan: unknown;
  try {
    plan = JSON.parse(planText);
  } catch {
    return `${engine} plans no query for this statement (it is a DDL, session, transaction or access-control statement)`;
  }
  if (plan === null || typeof plan !== 'object') {
    return `${engine} plans no query for this statement`;
  }
  const writers = new Set<string>();
  const visit = (node: PlanNode) => {
    if (typeof node.name === 'string' && WRITER_NODE.test(node.name)) writers.add(node.name);
    if (Array.isArray(node.children)) for (const child of node.children) visit(child as PlanNode);
  };
  // The logical plan is one root node; a distributed one is keyed by fragment.
  const roots = 'name' in plan ? [plan as PlanNode] : (Object.values(plan) as PlanNode[]);
  for (const root of roots) if (root !== null && typeof root === 'object') visit(root);
  if (writers.size === 0) return undefined;
  return `${engine}'s plan of the statement writes (${[...writers].join(', ')})`;
}

/** The statement without the trailing semicolons Trino's REST API refuses. */
export function trinoStatementText(sql: string): string {
  return sql.replace(/[;\s]+$/, '').trim();
}
