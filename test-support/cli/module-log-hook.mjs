// A module resolve hook for tests: prints every module the process loads, one `loaded <url>`
// line on stderr, so a test can tell which packages a command imported.
import { writeSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, `loaded ${result.url}\n`);
  return result;
}
