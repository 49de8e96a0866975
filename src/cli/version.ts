import { readFileSync } from 'node:fs';

/** The version of this nao build, from its package.json (recorded in every results file). */
export const NAO_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
