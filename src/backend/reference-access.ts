import { checkQueryAccess } from '../agent/index.js';
import type { ProjectRuntime } from '../test-run/index.js';

/**
 * Whether reference SQL sent by a backend user who is not the owner may run: under the
 * database's include / exclude / exclude_columns / allow_listed_only rules, checked as the
 * agent's own queries are. Otherwise any account could read an excluded table through
 * `expectedData`. A database that cannot be picked is left to the run, which then runs nothing.
 */
export async function checkReferenceAccess(options: {
  runtime: ProjectRuntime;
  sql: string;
  databaseName: string | null;
}): Promise<{ allowed: true } | { allowed: false; reason: string }> {
  const { runtime } = options;
  const wanted = options.databaseName?.trim() ?? '';
  const configured = runtime.databases.length + runtime.config.unavailableDatabases.length;
  const database =
    wanted === ''
      ? configured === 1
        ? runtime.databases[0]
        : undefined
      : runtime.databases.find((candidate) => candidate.name === wanted);
  if (database === undefined) return { allowed: true };
  const access = runtime.agentContext.access[database.name];
  if (access?.restricted !== true) return { allowed: true };
  const checked = await checkQueryAccess({
    sql: options.sql,
    databaseName: database.name,
    tables: runtime.agentContext.catalogs[database.name] ?? [],
    access,
  });
  // Row security would filter this SQL: run as written, it would read rows the agent may not.
  if (checked.allowed && checked.sql === options.sql) return { allowed: true };
  if (checked.allowed) {
    return {
      allowed: false,
      reason: `Query refused: it reads a table with row_security in database "${database.name}". Only the server's owner may run reference SQL beyond what the agent may read.`,
    };
  }
  return {
    allowed: false,
    reason: `${checked.reason} Only the server's owner may run reference SQL beyond what the agent may read.`,
  };
}
