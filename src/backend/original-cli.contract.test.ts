import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { ORIGINAL_CLI_CLIENTS } from '../../test-support/original-nao/cli-clients.js';
import { loadConfig } from '../config/index.js';
import { type RunningBackend, startBackend } from './backend.js';

/**
 * The original nao's CLI against `nao chat`: its recorded requests (test-support/original-nao/http)
 * replayed as its `requests` session sends them (cookies only, no bearer token), and every
 * answer checked against what its client code reads.
 */
const HTTP = path.resolve(import.meta.dirname, '../../test-support/original-nao/http');
const fixture = async (name: string) => JSON.parse(await readFile(path.join(HTTP, name), 'utf8'));

let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let answers: Record<string, ScriptedAnswer> = {};
let reads: {
  response: string[];
  toolCall: string[];
  TokenUsage: string[];
  TokenCost: string[];
  VerificationResult: string[];
  VerificationResultOptional: string[];
  signInError: string;
};

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  backend = await startBackend({
    config: await loadConfig({ projectDir: project.dir, env: {} }),
    env: {},
    port: 0,
    version: 'test',
  });
  reads = await fixture('cli-reads.json');
  const signIn = await fixture('cli-sign-in.request.json');
  // The account, made on nao chat's page (here through better-auth's standard sign-up route).
  const signUp = await send('POST', '/api/auth/sign-up/email', { body: signIn.body });
  expect(signUp.status).toBe(200);
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

/** One call as Python's `requests` makes it: JSON body, the cookie jar's cookies, nothing else. */
async function send(
  method: string,
  route: string,
  options: { body?: unknown; cookies?: Map<string, string> } = {},
) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookies !== undefined && options.cookies.size > 0) {
    headers.cookie = [...options.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  const response = await fetch(`${backend.url}${route}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: read as the original CLI reads it, untyped JSON.
  const body: any = await response.json();
  return { status: response.status, body, setCookies: response.headers.getSetCookie() };
}

/** `dict(response.cookies)`: name → value; a Secure cookie would not be sent back over http. */
function cookieJar(setCookies: string[]): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of setCookies) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    if (attributes.some((attribute) => attribute.toLowerCase() === 'secure')) continue;
    const equals = pair!.indexOf('=');
    jar.set(pair!.slice(0, equals), pair!.slice(equals + 1));
  }
  return jar;
}

async function logIn(): Promise<Map<string, string>> {
  const signIn = await fixture('cli-sign-in.request.json');
  const reply = await send(signIn.method, signIn.path, { body: signIn.body });
  expect(reply.status).toBe(200);
  const jar = cookieJar(reply.setCookies);
  // prompt_login: "Login succeeded but no session cookie received" when this is empty.
  expect(jar.size).toBeGreaterThan(0);
  return jar;
}

/** Fails where the original CLI's client code would: missing keys, or keys its dataclasses refuse. */
function expectReadableByOriginalCli(body: Record<string, unknown>): void {
  for (const key of reads.response) expect(body, `response.${key}`).toHaveProperty(key);
  expect(Array.isArray(body.toolCalls)).toBe(true);
  for (const call of body.toolCalls as Record<string, unknown>[]) {
    for (const key of reads.toolCall) expect(typeof call[key]).toBe('string');
  }
  // TokenUsage(**data["usage"]) / TokenCost(**data["cost"]): an object, no other key.
  expect(body.usage).toBeTypeOf('object');
  expect(Object.keys(body.usage as object).filter((key) => !reads.TokenUsage.includes(key))).toEqual([]);
  expect(body.cost).not.toBeNull();
  expect(body.cost).toBeTypeOf('object');
  expect(Object.keys(body.cost as object).filter((key) => !reads.TokenCost.includes(key))).toEqual([]);
  const verification = body.verification as Record<string, unknown> | null | undefined;
  if (verification) {
    for (const key of reads.VerificationResult)
      expect(verification, `verification.${key}`).toHaveProperty(key);
    // pd.DataFrame(data): rows as objects.
    for (const rows of [verification.data, verification.expectedData]) {
      if (rows !== null)
        expect((rows as unknown[]).every((row) => row !== null && !Array.isArray(row))).toBe(true);
    }
    const usage = verification.usage as object | undefined;
    if (usage) expect(Object.keys(usage).filter((key) => !reads.TokenUsage.includes(key))).toEqual([]);
  }
  // Every shipped version of its client unpacks the answer without an error.
  for (const client of ORIGINAL_CLI_CLIENTS) expect(() => client.read(body), client.version).not.toThrow();
}

describe("the original nao's CLI against nao chat", () => {
  it('logs in at better-auth’s standard route and gets a session cookie', async () => {
    const jar = await logIn();
    expect([...jar.keys()].some((name) => name.endsWith('session_token'))).toBe(true);
  });

  it('is refused with the message its log-in prints', async () => {
    const signIn = await fixture('cli-sign-in.request.json');
    const reply = await send(signIn.method, signIn.path, { body: { ...signIn.body, password: 'wrong' } });
    expect(reply.status).toBe(401);
    expect(reply.body[reads.signInError]).toBe('Invalid email or password.');
  });

  it('runs a test with its cookie and reads the answer: the verdict data and the price it sent', async () => {
    const jar = await logIn();
    const run = await fixture('cli-test-run.request.json');
    // The recorded body, with the example shop's own reference SQL (the recording's is jaffle_shop's).
    const test = project.tests.find((entry) => entry.name === 'total_revenue')!;
    const body = { ...run.body, prompt: test.prompt, sql: test.sql };
    answers = { [test.prompt]: { sql: test.sql } };
    const reply = await send(run.method, run.path, { body, cookies: jar });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectReadableByOriginalCli(reply.body);
    const { verification, usage, cost } = reply.body;
    expect(verification.expectedColumns).toEqual(['total_revenue']);
    // check_dataframe compares these two: the agent's answer and the reference.
    expect(verification.data).toEqual(verification.expectedData);
    // meta.costs: $2 / $8 per million input / output tokens.
    const expected = (usage.inputNoCacheTokens * 2 + usage.outputTotalTokens * 8) / 1_000_000;
    expect(typeof cost.totalCost).toBe('number');
    expect(cost.totalCost).toBeCloseTo(expected, 10);
  });

  it.each(ORIGINAL_CLI_CLIENTS)('$version reads the verification data of a run', async ({ read }) => {
    const jar = await logIn();
    const run = await fixture('cli-test-run.request.json');
    const test = project.tests.find((entry) => entry.name === 'total_revenue')!;
    answers = { [test.prompt]: { sql: test.sql } };
    const reply = await send(run.method, run.path, {
      body: { ...run.body, prompt: test.prompt, sql: test.sql },
      cookies: jar,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const result = read(reply.body);
    expect(result.verification?.expectedColumns).toEqual(['total_revenue']);
    expect(result.verification?.data).toEqual(result.verification?.expectedData);
    expect(result.verification?.data).toHaveLength(1);
  });

  it('runs a test without SQL ("") as unverified: no verification in the answer', async () => {
    const jar = await logIn();
    const run = await fixture('cli-test-run-no-sql.request.json');
    answers = { [run.body.prompt]: { text: 'About 4% churned.' } };
    const reply = await send(run.method, run.path, { body: run.body, cookies: jar });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectReadableByOriginalCli(reply.body);
    expect(reply.body.verification ?? null).toBeNull();
  });

  it('answers an unpriced model with a cost object its client can read', async () => {
    const jar = await logIn();
    const run = await fixture('cli-test-run-no-sql.request.json');
    const body = { ...run.body, model: { provider: 'openai', modelId: 'an-unpriced-model' } };
    answers = { [run.body.prompt]: { text: 'About 4% churned.' } };
    const reply = await send(run.method, run.path, { body, cookies: jar });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectReadableByOriginalCli(reply.body);
    expect(reply.body.cost).toEqual({});
  });

  it('answers 401 without its cookie', async () => {
    const run = await fixture('cli-test-run.request.json');
    expect((await send(run.method, run.path, { body: run.body })).status).toBe(401);
  });
});
