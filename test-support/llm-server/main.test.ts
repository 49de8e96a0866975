import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(stdout.slice(0, newline));
    });
    child.on('exit', () => reject(new Error(`exited before printing its url: ${stderr}`)));
  });
  return { child, exited, firstLine, stderr: () => stderr };
}

/** The text of a non-streamed chat completion. */
async function replyText(response: Response): Promise<string | null | undefined> {
  const body = (await response.json()) as { choices: { message: { content: string | null } }[] };
  return body.choices[0]?.message.content;
}

describe('llm-test-server CLI', () => {
  it('serves a script file, records requests and stops on SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nao-llm-server-'));
    const scriptPath = path.join(dir, 'script.json');
    const recordPath = path.join(dir, 'requests.jsonl');
    writeFileSync(
      scriptPath,
      JSON.stringify({ routes: [{ match: 'revenue', turns: [{ text: 'It is 42.' }] }] }),
    );
    const server = run(['--script', scriptPath, '--record', recordPath]);
    const { url } = JSON.parse(await server.firstLine) as { url: string };
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'total revenue?' }] }),
    });
    expect(await replyText(response)).toBe('It is 42.');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const recorded = readFileSync(recordPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(recorded.map((request) => request.messages.at(-1).content)).toEqual(['total revenue?']);
  });

  it.each([
    [[], '--script <file.json> is required'],
    [['--script', '/nonexistent/script.json'], 'cannot use /nonexistent/script.json'],
    [['--script', 'x', '--port', 'abc'], '--port must be an integer'],
  ])('exits 2 with a message for bad arguments %j', async (args, message) => {
    const server = run(args);
    server.firstLine.catch(() => undefined);
    expect(await server.exited).toBe(2);
    expect(server.stderr()).toContain(message);
  });
});
