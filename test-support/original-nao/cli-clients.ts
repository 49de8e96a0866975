/**
 * How each shipped version of the original nao's CLI unpacks the answer of `POST /api/test/run`
 * (getnao/nao, cli/nao_core/commands/test/client.py), modelled from reading its history for the
 * contract tests. Python dataclasses built with `Cls(**dict)` refuse an unknown key and a missing
 * required one (TypeError); `dict["key"]` refuses a missing key (KeyError). Each model throws
 * where that version would.
 */

type Json = Record<string, unknown>;

const TOKEN_USAGE = [
  'inputTotalTokens',
  'inputNoCacheTokens',
  'inputCacheReadTokens',
  'inputCacheWriteTokens',
  'outputTotalTokens',
  'outputTextTokens',
  'outputReasoningTokens',
  'totalTokens',
];
const TOKEN_COST = ['inputNoCache', 'inputCacheRead', 'inputCacheWrite', 'output', 'totalCost'];

/** `Cls(**value)` for a dataclass with these required and defaulted fields. */
function dataclass(name: string, value: unknown, fields: { required: string[]; optional: string[] }): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name}() argument after ** must be a mapping`);
  }
  const known = [...fields.required, ...fields.optional];
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new TypeError(`${name}.__init__() got an unexpected keyword argument '${key}'`);
  }
  for (const key of fields.required) {
    if (!(key in value)) throw new TypeError(`${name}.__init__() missing 1 required positional argument: '${key}'`);
  }
  return value as Json;
}

/** `dict["key"]`. */
function item(value: Json, key: string): unknown {
  if (!(key in value)) throw new Error(`KeyError: '${key}'`);
  return value[key];
}

const tokenUsage = (value: unknown) => dataclass('TokenUsage', value, { required: [], optional: TOKEN_USAGE });
const tokenCost = (value: unknown) => dataclass('TokenCost', value, { required: [], optional: TOKEN_COST });
/** Python truthiness of `data.get("verification")`: None and {} are false. */
const truthy = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'object' && Object.keys(value).length === 0);

export interface OriginalTestResult {
  text: unknown;
  toolCalls: unknown;
  usage: Json;
  cost: Json;
  finishReason: unknown;
  durationMs: unknown;
  verification: Json | null;
}

function testResult(data: Json, verification: Json | null): OriginalTestResult {
  return {
    text: item(data, 'text'),
    toolCalls: item(data, 'toolCalls'),
    usage: tokenUsage(item(data, 'usage')),
    cost: tokenCost(item(data, 'cost')),
    finishReason: item(data, 'finishReason'),
    durationMs: data.durationMs ?? 0,
    verification,
  };
}

/**
 * Every shipped version, oldest first: `nao test` as added (#118, 2026-02-03) until the
 * verification grew `sql`/`error`/`usage`: `VerificationResult(**data["verification"])` with
 * `data`, `expectedData`, `expectedColumns` only; then the version that unpacks them one by one.
 */
export const ORIGINAL_CLI_CLIENTS: readonly { version: string; read: (data: Json) => OriginalTestResult }[] = [
  {
    version: 'nao test #118 to #150 (VerificationResult(**verification))',
    read: (data) =>
      testResult(
        data,
        truthy(data.verification)
          ? dataclass('VerificationResult', data.verification, {
              required: ['data', 'expectedData', 'expectedColumns'],
              optional: [],
            })
          : null,
      ),
  },
  {
    version: 'latest (verification unpacked key by key, with sql, error and usage)',
    read: (data) => {
      const raw = data.verification as Json | null | undefined;
      if (!truthy(raw)) return testResult(data, null);
      const v = raw as Json;
      const usage = v.usage;
      return testResult(data, {
        data: item(v, 'data'),
        expectedData: item(v, 'expectedData'),
        expectedColumns: item(v, 'expectedColumns'),
        sql: v.sql ?? null,
        error: v.error ?? null,
        usage: truthy(usage) ? tokenUsage(usage) : null,
      });
    },
  },
];
