import type { RowPolicy } from './table-access.js';

/** What the original's `nao sync` writes of a table that shows its schema but none of its rows. */
const SCHEMA_ONLY_FILES = new Set(['columns.md', 'description.md']);

/** Why the agent may not open a context file, or null: the caller's extra rule beside deniedReason. */
export type HiddenContext = (relativePath: string) => string | null;

/**
 * The context files that would show rows row security hides: in the `nao sync` layout
 * (`databases/type=…/database=…/schema=<s>/table=<t>/`), every file of a restricted table
 * except `columns.md` and `description.md` (previews, profiles and AI summaries are made
 * from its rows, all of them). Matched on `schema=`/`table=` whatever the database folder,
 * since a file cannot be tied to one database with certainty.
 */
export function rowSecurityHiddenFiles(policies: readonly RowPolicy[]): HiddenContext | undefined {
  if (policies.length === 0) return undefined;
  return (relativePath) => {
    const segments = relativePath.split('/');
    for (let index = 0; index + 2 < segments.length; index++) {
      const schema = segments[index]!;
      const table = segments[index + 1]!;
      if (!schema.startsWith('schema=') || !table.startsWith('table=')) continue;
      const rest = segments.slice(index + 2);
      if (rest.length === 1 && SCHEMA_ONLY_FILES.has(rest[0]!.toLowerCase())) return null;
      const name = `${schema.slice('schema='.length)}.${table.slice('table='.length)}`.toLowerCase();
      const policy = policies.find(
        (candidate) => `${candidate.schema}.${candidate.table}`.toLowerCase() === name,
      );
      if (policy !== undefined) {
        return (
          `it is made from rows of ${policy.schema}.${policy.table}, which row security hides ` +
          `(row_security access: ${policy.access}); its columns.md shows the columns`
        );
      }
    }
    return null;
  };
}
