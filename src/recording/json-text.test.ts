import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatJson } from './json-text.js';

describe('formatJson', () => {
  it.each([
    ['an empty object', {}, '{}\n'],
    ['an empty array', [], '[]\n'],
    [
      'scalars',
      { a: 1, b: 'x', c: null, d: true },
      '{\n  "a": 1,\n  "b": "x",\n  "c": null,\n  "d": true\n}\n',
    ],
    [
      'a short array on one line',
      { names: ['execute_sql', 'grep'] },
      '{\n  "names": ["execute_sql", "grep"]\n}\n',
    ],
    [
      'an array too long for one line, one element per line',
      { k: ['x'.repeat(60), 'y'.repeat(60)] },
      `{\n  "k": [\n    "${'x'.repeat(60)}",\n    "${'y'.repeat(60)}"\n  ]\n}\n`,
    ],
    ['an array holding an object', [{ a: 1 }], '[\n  {\n    "a": 1\n  }\n]\n'],
    ['nested empty values stay flat', { a: [[], {}] }, '{\n  "a": [[], {}]\n}\n'],
    ['exponents without +', [1e21, -1.2e-7], '[1e21, -1.2e-7]\n'],
    ['undefined members dropped, like JSON', { a: undefined, b: [undefined] }, '{\n  "b": [null]\n}\n'],
  ])('%s', (_label, value, text) => {
    expect(formatJson(value)).toBe(text);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it("matches the repository's formatter, so generated recordings pass `biome check`", () => {
    const values: Record<string, unknown> = {
      response: { output: [{ content: [{ annotations: [], text: 'Revenue was 1.', type: 'output_text' }] }] },
      unicode: ['é'.repeat(40), 'ü'.repeat(30), 'ß'.repeat(35)],
      quotes: ['a"b\\c'.repeat(8), 'y'.repeat(30)],
    };
    for (let n = 25; n < 40; n++)
      values[`edge${n}`] = { deep: { k: ['x'.repeat(40), 'y'.repeat(30), 'z'.repeat(n)] } };
    const biome = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@biomejs/biome/package.json')),
      'bin',
      'biome',
    );
    const formatted = execFileSync(process.execPath, [biome, 'format', '--stdin-file-path=recording.json'], {
      input: JSON.stringify(values, null, 2),
    }).toString();
    expect(formatJson(values)).toBe(formatted);
  });
});
