/**
 * `npx tsx test-support/llm-server/main.ts --script turns.json [--port N] [--record requests.jsonl]`
 *
 * Serves a scripted LLM for end-to-end tests of the `nao` binary. Prints one JSON line
 * `{"url": "http://127.0.0.1:PORT/v1", "port": PORT}` once listening, and stops on SIGTERM/SIGINT.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ScriptFileError, scriptFromJson } from './script-file.js';
import { startTestLlmServer } from './server.js';

function fail(message: string): never {
  process.stderr.write(`llm-test-server: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { script?: string; port?: string; record?: string };
  try {
    ({ values } = parseArgs({
      options: { script: { type: 'string' }, port: { type: 'string' }, record: { type: 'string' } },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.script === undefined) fail('--script <file.json> is required');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer 0-65535, got ${values.port}`);

  let script: ReturnType<typeof scriptFromJson>;
  try {
    script = scriptFromJson(JSON.parse(readFileSync(values.script, 'utf8')));
  } catch (error) {
    const reason = error instanceof ScriptFileError ? error.message : (error as Error).message;
    fail(`cannot use ${values.script}: ${reason}`);
  }
  const record = values.record;
  const server = await startTestLlmServer({
    script,
    port,
    ...(record === undefined
      ? {}
      : { onRequest: (request) => appendFileSync(record, `${JSON.stringify(request)}\n`) }),
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, port: server.port })}\n`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
