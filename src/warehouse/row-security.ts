import { z } from 'zod';
import { checkRowPredicate } from './row-predicate.js';

// Not fields.ts's helpers: fields.ts imports this module, and an import cycle would leave them undefined here.
const nonEmpty = z.string().trim().min(1, 'must not be empty');
const nullable = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === null ? undefined : value), schema.optional());

/**
 * The original nao's row security policies, one per table, with its keys and meaning:
 * `access: full` reads every row, `none` no row, `predicate` only the rows matching
 * `predicate` (a filter over the table's `constraint_columns`, see row-predicate.ts).
 * A table with no policy is not restricted.
 */
export const ROW_ACCESS_LEVELS = ['none', 'full', 'predicate'] as const;

const rowSecurityTable = z
  .object({
    schema: nonEmpty,
    table: nonEmpty,
    access: z.enum(ROW_ACCESS_LEVELS, {
      error: (issue) =>
        `must be one of ${ROW_ACCESS_LEVELS.join(', ')}, got ${JSON.stringify(issue.input) ?? 'nothing'}`,
    }),
    constraint_columns: nullable(z.array(nonEmpty)),
    predicate: nullable(z.string()),
  })
  .superRefine((policy, ctx) => {
    const columns = policy.constraint_columns ?? [];
    const repeated = columns.find((name, index) => columns.indexOf(name) !== index);
    if (repeated !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['constraint_columns'],
        message: `lists "${repeated}" twice`,
      });
    }
    if (policy.access !== 'predicate') {
      if (policy.predicate !== undefined && policy.predicate.trim() !== '') {
        ctx.addIssue({
          code: 'custom',
          path: ['predicate'],
          message: `is only read with \`access: predicate\` (this policy is \`access: ${policy.access}\`)`,
        });
      }
      return;
    }
    if (policy.predicate === undefined || policy.predicate.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['predicate'],
        message: 'is required with `access: predicate`: the filter of the rows the agent may read',
      });
      return;
    }
    if (columns.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['constraint_columns'],
        message: 'is required with `access: predicate`: the columns the predicate may name',
      });
      return;
    }
    const checked = checkRowPredicate({ predicate: policy.predicate, constraintColumns: columns });
    if (!checked.valid) {
      ctx.addIssue({
        code: 'custom',
        path: ['predicate'],
        message: `${JSON.stringify(policy.predicate)} is not a row filter nao can apply: ${checked.error}`,
      });
    }
  });

export type RowSecurityTable = z.output<typeof rowSecurityTable>;

/** `row_security`: the policies of one database's tables; one policy per table. */
export const rowSecurityField = nullable(z.array(rowSecurityTable)).superRefine((policies, ctx) => {
  const seen = new Set<string>();
  for (const [index, policy] of (policies ?? []).entries()) {
    const key = `${policy.schema}.${policy.table}`.toLowerCase();
    if (seen.has(key)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'table'],
        message: `a second policy for ${policy.schema}.${policy.table}; give each table one policy`,
      });
    }
    seen.add(key);
  }
});
