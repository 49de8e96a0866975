import { createHash } from 'node:crypto';

/**
 * Query ids for one recorded or replayed run. The agent's `execute_sql` results are named by
 * these ids, and the ids reach later model inputs (tool results, the extraction tables), so a
 * replay only matches its recording when both runs draw the same ids in the same order:
 * `query_` + the first 8 hex characters of sha256(`<test>|<model>|<attempt>|<n>`), n = 1, 2, …
 */
export function deterministicQueryIds(options: {
  test: string;
  model: string;
  attempt: number;
}): () => string {
  let n = 0;
  return () => {
    n++;
    const digest = createHash('sha256')
      .update(`${options.test}|${options.model}|${options.attempt}|${n}`)
      .digest('hex');
    return `query_${digest.slice(0, 8)}`;
  };
}
