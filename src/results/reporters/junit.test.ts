import { describe, expect, it } from 'vitest';
import { judgedDetails, resultsFile, run } from '../../../test-support/results/run-fixture.js';
import { escapeXmlAttribute, escapeXmlText, MAX_SYSTEM_OUT_CHARS, toJUnitXml } from './junit.js';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/**
 * A strict parser for the XML subset JUnit uses (declaration, elements, attributes, text,
 * the five predefined entities and numeric references). It throws on anything a conforming
 * parser would reject: a stray `<` or `&`, a bad entity, mismatched tags, duplicate attributes,
 * characters XML 1.0 forbids, or `]]>` in text.
 */
function parseXml(source: string): XmlElement {
  let pos = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at ${pos}: ${JSON.stringify(source.slice(pos, pos + 40))}`);
  };
  for (const char of source) {
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!allowed) fail(`forbidden character U+${code.toString(16)}`);
  }
  const skipSpace = () => {
    while (/\s/.test(source[pos] ?? '')) pos++;
  };
  // As a conforming parser does: line ends become \n, and in attribute values literal
  // whitespace becomes a space; only character references keep \r, \n and \t.
  const decode = (raw: string, inAttribute = false): string => {
    if (raw.includes('<')) fail('raw < in character data');
    const normalized = raw.replace(/\r\n?/g, '\n');
    return (inAttribute ? normalized.replace(/[\t\n]/g, ' ') : normalized).replace(
      /&([^;]*);?/g,
      (match, entity: string) => {
        if (!match.endsWith(';')) fail('unterminated entity');
        const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
        if (entity in named) return named[entity] ?? '';
        const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(entity);
        if (!numeric) return fail(`unknown entity &${entity};`);
        return String.fromCodePoint(Number.parseInt(numeric[1] ?? numeric[2] ?? '', numeric[1] ? 16 : 10));
      },
    );
  };
  const name = (): string => {
    const match = /^[A-Za-z_][\w.-]*/.exec(source.slice(pos));
    if (!match) return fail('expected a name');
    pos += match[0].length;
    return match[0];
  };
  const element = (): XmlElement => {
    if (source[pos] !== '<') fail('expected <');
    pos++;
    const node: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', pos)) {
        pos += 2;
        return node;
      }
      if (source[pos] === '>') {
        pos++;
        break;
      }
      const attribute = name();
      if (attribute in node.attributes) fail(`duplicate attribute ${attribute}`);
      skipSpace();
      if (source[pos] !== '=') fail('expected =');
      pos++;
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") return fail('expected a quote');
      const end = source.indexOf(quote, pos + 1);
      if (end < 0) fail('unterminated attribute');
      node.attributes[attribute] = decode(source.slice(pos + 1, end), true);
      pos = end + 1;
    }
    for (;;) {
      const next = source.indexOf('<', pos);
      if (next < 0) fail('unclosed element');
      const raw = source.slice(pos, next);
      if (raw.includes(']]>')) fail(']]> in text');
      node.text += decode(raw);
      pos = next;
      if (source.startsWith('</', pos)) {
        pos += 2;
        if (name() !== node.name) fail(`mismatched closing tag for ${node.name}`);
        skipSpace();
        if (source[pos] !== '>') fail('expected >');
        pos++;
        return node;
      }
      node.children.push(element());
    }
  };
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(source);
  if (!declaration) fail('missing XML declaration');
  pos = declaration?.[0].length ?? 0;
  const root = element();
  skipSpace();
  if (pos !== source.length) fail('content after the root element');
  return root;
}

const A = 'openai:gpt-4.1';
const B = 'anthropic:claude-sonnet-4-5';

function counts(node: XmlElement) {
  const cases = node.name === 'testsuites' ? node.children.flatMap((suite) => suite.children) : node.children;
  const having = (tag: string) => cases.filter((c) => c.children.some((child) => child.name === tag)).length;
  return {
    declared: {
      tests: Number(node.attributes.tests),
      failures: Number(node.attributes.failures),
      errors: Number(node.attributes.errors),
      skipped: Number(node.attributes.skipped),
    },
    actual: {
      tests: cases.length,
      failures: having('failure'),
      errors: having('error'),
      skipped: having('skipped'),
    },
  };
}

describe('toJUnitXml', () => {
  const results = [
    run({ name: 't1', model: A, duration_ms: 1234, file: 'sales/t1.yml' }),
    run({
      name: 't2',
      model: A,
      status: 'failed',
      message: 'values differ',
      details: { diff: { kind: 'values', text: 'row 0, total: 41 ≠ 42' } },
    }),
    run({
      name: 't3',
      model: A,
      status: 'error',
      details: { error: 'provider error: 500 Internal Server Error' },
    }),
    run({ name: 't1', model: B, status: 'unverified' }),
    run({ name: 't2', model: B, status: 'skipped', message: 'skipped: budget reached' }),
    run({ name: 't3', model: B }),
  ];
  const file = resultsFile(results, { models: [A, B] });

  it('writes one suite per model with counts that match its cases', () => {
    const root = parseXml(toJUnitXml({ file }));
    expect(root.name).toBe('testsuites');
    expect(root.attributes.name).toBe('nao test');
    expect(root.children.map((suite) => suite.attributes.name)).toEqual([A, B]);
    for (const node of [root, ...root.children]) {
      const { declared, actual } = counts(node);
      expect(declared).toEqual(actual);
    }
    expect(counts(root).actual).toEqual({ tests: 6, failures: 1, errors: 1, skipped: 2 });
    expect(root.children[0]?.attributes.timestamp).toBe('2025-02-09T14:30:22');
  });

  it('describes each case: classname, time in seconds, file, failure body with the diff', () => {
    const root = parseXml(toJUnitXml({ file, suiteName: 'shop' }));
    expect(root.attributes.name).toBe('shop');
    const [t1, t2, t3] = root.children[0]?.children ?? [];
    expect(t1?.attributes).toEqual({ name: 't1', classname: A, time: '1.234', file: 'tests/sales/t1.yml' });
    const failure = t2?.children.find((child) => child.name === 'failure');
    expect(failure?.attributes).toEqual({ message: 'values differ', type: 'failed' });
    expect(failure?.text).toBe('values differ\n\nrow 0, total: 41 ≠ 42');
    const error = t3?.children.find((child) => child.name === 'error');
    expect(error?.text).toBe('provider error: 500 Internal Server Error');
    const unverified = root.children[1]?.children[0]?.children.find((child) => child.name === 'skipped');
    expect(unverified?.attributes.message).toBe('unverified: no verification');
    expect(t1?.children.find((child) => child.name === 'system-out')?.text).toBe('The total revenue is 42.');
  });

  it('marks a case graded by the judge model with properties, before its outcome', () => {
    const judgedFile = resultsFile([
      run({ name: 'biggest_customer', details: judgedDetails() }),
      run({
        name: 'top_region',
        status: 'failed',
        message: 'Names EU instead of US.',
        details: judgedDetails({ verdict: 'fail', reason: 'Names EU instead of US.' }),
      }),
      run({ name: 'total_revenue' }),
    ]);
    const [passed, failed, plain] = parseXml(toJUnitXml({ file: judgedFile })).children[0]?.children ?? [];
    const properties = (node: XmlElement | undefined) =>
      node?.children
        .find((child) => child.name === 'properties')
        ?.children.map((property) => [property.attributes.name, property.attributes.value]);
    expect(properties(passed)).toEqual([
      ['judged', 'true'],
      ['judge_model', 'openai:gpt-4.1'],
      ['judge_verdict', 'pass'],
    ]);
    expect(failed?.children.map((child) => child.name)).toEqual(['properties', 'failure', 'system-out']);
    expect(properties(failed)).toContainEqual(['judge_verdict', 'fail']);
    expect(properties(plain)).toBeUndefined();
    expect(counts(parseXml(toJUnitXml({ file: judgedFile }))).actual).toMatchObject({
      tests: 3,
      failures: 1,
    });
  });

  it('names each attempt when runs were repeated', () => {
    const repeated = resultsFile([1, 2].map((attempt) => run({ attempt })));
    const root = parseXml(toJUnitXml({ file: repeated }));
    expect(root.children[0]?.children.map((c) => c.attributes.name)).toEqual([
      'total_revenue [attempt 1]',
      'total_revenue [attempt 2]',
    ]);
  });

  it('escapes markup, quotes and line breaks, drops control characters and survives ]]>', () => {
    const nasty = `a<b>&c"d'e]]>f\u0000g\u0007h\u001b[31mi\u001b[0m\u{1F600}\uD800j\r\nk\tl`;
    const xml = toJUnitXml({
      file: resultsFile([
        run({
          name: nasty,
          model: `${A}<&>`,
          status: 'failed',
          message: nasty,
          details: { response_text: nasty, diff: { kind: 'text', text: nasty } },
        }),
      ]),
    });
    const root = parseXml(xml);
    const testcase = root.children[0]?.children[0];
    const clean = `a<b>&c"d'e]]>fghi\u{1F600}j\r\nk\tl`;
    expect(testcase?.attributes.name).toBe(clean);
    expect(testcase?.attributes.classname).toBe(`${A}<&>`);
    const failure = testcase?.children[0];
    expect(failure?.attributes.message).toBe(clean);
    expect(failure?.text).toBe(`${clean}\n\n${clean}`);
    expect(testcase?.children[1]?.text).toBe(clean);
    expect(xml).not.toContain(']]>');
  });

  it('bounds the response text kept in system-out', () => {
    const long = 'x'.repeat(MAX_SYSTEM_OUT_CHARS * 3);
    const root = parseXml(toJUnitXml({ file: resultsFile([run({ details: { response_text: long } })]) }));
    const out =
      root.children[0]?.children[0]?.children.find((child) => child.name === 'system-out')?.text ?? '';
    expect(out.length).toBeLessThan(MAX_SYSTEM_OUT_CHARS + 100);
    expect(out).toContain(`(${MAX_SYSTEM_OUT_CHARS * 2} more characters cut)`);
  });

  it('is a valid document for an empty file', () => {
    const root = parseXml(toJUnitXml({ file: resultsFile([]) }));
    expect(root.attributes).toMatchObject({ tests: '0', failures: '0', errors: '0', skipped: '0' });
    expect(root.children).toEqual([]);
  });
});

describe('escaping helpers', () => {
  it.each([
    ['<&>', '&lt;&amp;&gt;'],
    ['x]]>y', 'x]]&gt;y'],
    ['a\r\nb', 'a&#13;\nb'],
    ['a\u0001b\uFFFEc', 'abc'],
  ])('escapeXmlText(%j) = %j', (input, expected) => {
    expect(escapeXmlText(input)).toBe(expected);
  });

  it.each([
    [`"'`, '&quot;&apos;'],
    ['a\nb\tc\rd', 'a&#10;b&#9;c&#13;d'],
  ])('escapeXmlAttribute(%j) = %j', (input, expected) => {
    expect(escapeXmlAttribute(input)).toBe(expected);
  });
});
