import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { seededRandom } from '../../tools/example/shop-data.js';
import { SCAFFOLD_FILES } from '../init/scaffold.js';
import { readPlainYamlMapping } from './plain-yaml-mapping.js';

/** What the `yaml` library reads, as `parseTestFile` asks it; `null` when it reports anything. */
function libraryReading(text: string): unknown {
  const documents = Array.from(
    parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' }),
  );
  if (documents.length !== 1) return null;
  const [document] = documents;
  if (document!.errors.length > 0 || document!.warnings.length > 0) return null;
  return document!.toJS();
}

/** Pieces in the subset, which the reader should read. */
const KEYS = [
  'name',
  'prompt',
  'sql',
  'database',
  'ordered',
  'my-key',
  'a_b',
  'yes',
  'constructor',
  'k1',
  'Key',
];
const VALUES = [
  'text',
  'How many orders? (bench 7)',
  'SELECT COUNT(*) AS n FROM t WHERE id <= 5',
  'a:b',
  'x#c',
  '"quoted"',
  '"a #b: c"',
  "'single'",
  "'it''s'",
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'yes',
  'on',
  'é à ü',
  '中文',
  "O'Brien",
  'say "hi"',
  'a?b',
  'trailing   ',
  'no-break space\u00a0',
  '\u2003em space first',
  'ideographic space\u3000',
  '|',
  '|-',
];
/** Pieces often just outside it, which it must give up on or read as the library does. */
const TRICKY_KEYS = ['true', 'Null', '__proto__', '1k', '"q"', 'a b', '-k', 'é', 'a-', '_'];
const TRICKY_VALUES = [
  'a: b',
  'end:',
  'x #c',
  '#c',
  '"esc\\"aped"',
  '"open',
  '"a" b',
  "'bad'x'",
  "'open",
  '|+',
  '>',
  '>-',
  '|2',
  '| # c',
  '- item',
  '[a, b]',
  '{a: 1}',
  '&anchor x',
  '*alias',
  '!tag x',
  '!!str 1',
  '1',
  '-1',
  '+1',
  '0x1F',
  '0o17',
  '1e3',
  '.5',
  '.inf',
  '.NaN',
  '😀 emoji',
  'a\tb',
  '%x',
  '@x',
  '`x',
  '? q',
  ': x',
  'x\u2028y',
  'x\u0085y',
  '\uFEFFx',
];
const AFTER_COLON = [' ', ' ', ' ', ' ', '  ', '\t', ':', ' :', '', '\u00a0', ' \u00a0'];
const BLOCK_LINES = [
  'SELECT 1',
  'FROM t',
  '#not a comment',
  'key: value',
  '"quoted"',
  '- item',
  '|',
  'x\u00a0',
  '\u00a0',
  '',
];
const EXTRA_LINES = [
  '# comment',
  '',
  '   ',
  '#',
  '\u00a0',
  ' \u3000',
  '---',
  '...',
  '  indented',
  '- x',
  'no colon here',
  '  # indented comment',
  '%YAML 1.2',
  '? complex',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** Mostly the first list, sometimes the second. */
function pickMostly<T>(next: () => number, usual: readonly T[], tricky: readonly T[]): T {
  return next() < 0.9 ? pick(next, usual) : pick(next, tricky);
}

/** A file built from pieces that are mostly in the subset and often just outside it. */
function generatedFile(next: () => number): string {
  const lines: string[] = [];
  const entries = 1 + Math.floor(next() * 5);
  for (let e = 0; e < entries; e++) {
    if (next() < 0.15)
      lines.push(next() < 0.7 ? pick(next, EXTRA_LINES.slice(0, 4)) : pick(next, EXTRA_LINES));
    const value = pickMostly(next, VALUES, TRICKY_VALUES);
    const colon = next() < 0.95 ? AFTER_COLON[0]! : pick(next, AFTER_COLON);
    lines.push(`${pickMostly(next, KEYS, TRICKY_KEYS)}:${value === '' ? '' : colon}${value}`);
    if (value.startsWith('|') || value.startsWith('>') || next() < 0.05) {
      const indent = ' '.repeat(next() < 0.05 ? 0 : 1 + Math.floor(next() * 4));
      const count = Math.floor(next() * 5);
      for (let l = 0; l < count; l++) {
        const text = pick(next, BLOCK_LINES);
        if (text === '') lines.push(next() < 0.7 ? '' : ' '.repeat(Math.floor(next() * 6)));
        else lines.push(`${next() < 0.1 ? ' '.repeat(Math.floor(next() * 6)) : indent}${text}`);
      }
    }
  }
  const text = lines.join(next() < 0.03 ? '\r\n' : '\n');
  return next() < 0.8 ? `${text}\n` : text;
}

const MUTATIONS = [
  ' ',
  '\u00a0',
  '  ',
  '\n',
  ':',
  '#',
  '"',
  "'",
  '|',
  '-',
  '\t',
  '\r',
  '\\',
  '{',
  '[',
  '&',
  '*',
  '!',
  '?',
  'x',
  '1',
  '.',
];

/** The file with a few characters inserted, deleted or replaced. */
function mutated(next: () => number, text: string): string {
  let result = text;
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (result.length + 1));
    const roll = next();
    if (roll < 0.4) result = result.slice(0, at) + pick(next, MUTATIONS) + result.slice(at);
    else if (roll < 0.7) result = result.slice(0, at) + result.slice(at + 1);
    else result = result.slice(0, at) + pick(next, MUTATIONS) + result.slice(at + 1);
  }
  return result;
}

describe('readPlainYamlMapping', () => {
  it('reads the README template and plain files of every kind, as the library does', () => {
    const files: Array<[string, Record<string, unknown>]> = [
      [
        'name: total_revenue\nprompt: What is the total revenue from all orders?\nsql: |\n  SELECT SUM(amount) as total_revenue\n  FROM orders\n',
        {
          name: 'total_revenue',
          prompt: 'What is the total revenue from all orders?',
          sql: 'SELECT SUM(amount) as total_revenue\nFROM orders\n',
        },
      ],
      [
        '# A test\nname: t1\nprompt: "How many orders have an id of at most 1? (bench 1)"\nsql: SELECT COUNT(*) AS orders FROM orders WHERE order_id <= 1\n',
        {
          name: 't1',
          prompt: 'How many orders have an id of at most 1? (bench 1)',
          sql: 'SELECT COUNT(*) AS orders FROM orders WHERE order_id <= 1',
        },
      ],
      [
        "prompt: 'Who is O''Brien?'\nsql: |-\n    SELECT 1\n\n    -- keep the blank line\n    FROM t\n\nordered: true\ndatabase:\n",
        {
          prompt: "Who is O'Brien?",
          sql: 'SELECT 1\n\n-- keep the blank line\nFROM t',
          ordered: true,
          database: null,
        },
      ],
      ['prompt: é à ü 中文\n', { prompt: 'é à ü 中文' }],
      // Only the space separates: a no-break space is text, even at the end of a line.
      ['prompt: a\u00a0b\u00a0\nsql: |\n  x\u3000\n', { prompt: 'a\u00a0b\u00a0', sql: 'x\u3000\n' }],
      [
        'ordered: FALSE\nname: ~\nprompt: a:b, [c] {d} x#y\n',
        { ordered: false, name: null, prompt: 'a:b, [c] {d} x#y' },
      ],
      ['sql: |\n  SELECT 1', { sql: 'SELECT 1\n' }],
    ];
    for (const [text, expected] of files) {
      expect(readPlainYamlMapping(text), text).toEqual(expected);
      expect(libraryReading(text), text).toEqual(expected);
    }
  });

  it('reads the test files nao ships (nao init, the example) as the library does, all but the nested ones', () => {
    const exampleTests = fileURLToPath(new URL('../../example/tests/', import.meta.url));
    const shipped = [
      SCAFFOLD_FILES['tests/row_count.yml']!,
      ...readdirSync(exampleTests)
        .filter((name) => name.endsWith('.yml'))
        .map((name) => readFileSync(path.join(exampleTests, name), 'utf8')),
    ];
    expect(shipped.length).toBeGreaterThan(5);
    for (const text of shipped) {
      // A key with nothing after it and indented lines below holds a list or a mapping.
      const nested = /^[a-z_]+:\s*\n[ -]/m.test(text);
      expect(readPlainYamlMapping(text), text).toEqual(nested ? null : libraryReading(text));
    }
  });

  it('gives up on what it does not cover, for the library to read or to report', () => {
    const outside = [
      '',
      '# only a comment\n',
      'assertions:\n  - tool: execute_sql\n',
      'comparison: {rtol: 0.01}\n',
      'prompt: >\n  folded\n  text\n',
      'sql: |+\n  kept\n\n',
      'prompt: "line one\n  line two"\n',
      'prompt: first\n  continued\n',
      'prompt: a # comment\n',
      'prompt: "esc\\tape"\n',
      'prompt: 42\n',
      'name: a\nname: b\n',
      '---\nprompt: x\n',
      'prompt: x\r\n',
      '\uFEFFprompt: x\n',
      'prompt: &a x\nsql: *a\n',
      'true: x\n',
      '__proto__: x\n',
      'sql: |\n\n  SELECT 1\n',
      'sql: |\n    SELECT 1\n  FROM t\n',
      'sql: |\n  SELECT 1\n      \n  FROM t\n',
      'prompt: x\n\u00a0\n',
      `${'k'.repeat(1100)}: x\n`,
    ];
    for (const text of outside) expect(readPlainYamlMapping(text), JSON.stringify(text)).toBeNull();
  });

  it('never reads a file differently from the library (generated and mutated files)', () => {
    // Seeded, so that a failing file can be generated again.
    const next = seededRandom(20261130);
    let read = 0;
    let total = 0;
    for (let i = 0; i < 6000; i++) {
      const base = generatedFile(next);
      for (const text of [base, mutated(next, base)]) {
        total++;
        const fast = readPlainYamlMapping(text);
        if (fast === null) continue;
        read++;
        expect(libraryReading(text), `file ${i}: ${JSON.stringify(text)}`).toEqual(fast);
      }
    }
    // The comparison means something only if many files were in the subset.
    expect(read).toBeGreaterThan(total / 10);
  });
});
