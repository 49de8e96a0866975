import { describe, expect, it } from 'vitest';
import { parseTestFile } from './parse-test-file.js';

function parse(text: string, options: { relativePath?: string; databaseNames?: string[] } = {}) {
  const relativePath = options.relativePath ?? 'orders.yml';
  return parseTestFile({
    text,
    filePath: `/project/tests/${relativePath}`,
    relativePath,
    ...(options.databaseNames === undefined ? {} : { databaseNames: options.databaseNames }),
  });
}

function problemsOf(text: string, options: { databaseNames?: string[] } = {}): string[] {
  const parsed = parse(text, options);
  if (parsed.success) return [];
  return parsed.problems.map((problem) => `${problem.field ?? '-'}: ${problem.message}`);
}

describe('parseTestFile: valid files', () => {
  it('reads the documented template, defaulting everything else', () => {
    const parsed = parse(
      'name: total_revenue\nprompt: What is the total revenue from all orders?\nsql: |\n  SELECT SUM(amount) as total_revenue\n  FROM orders\n',
    );
    expect(parsed).toEqual({
      success: true,
      warnings: [],
      test: {
        name: 'total_revenue',
        prompt: 'What is the total revenue from all orders?',
        // The block scalar's trailing newline is not part of the query.
        sql: 'SELECT SUM(amount) as total_revenue\nFROM orders',
        expectedAnswer: null,
        allowClarification: false,
        database: null,
        assertions: [],
        ordered: false,
        comparison: null,
        filePath: '/project/tests/orders.yml',
        relativePath: 'orders.yml',
        folders: [],
      },
    });
  });

  it('reads every field', () => {
    const parsed = parse(
      [
        'name: eu_orders',
        'prompt: Orders in the EU by month?',
        'sql: SELECT month, count(*) FROM orders GROUP BY 1 ORDER BY 1',
        'database: warehouse',
        'ordered: true',
        'comparison: {rtol: 1e-3, decimals: 4}',
        'assertions:',
        '  - type: tool_call',
        '    tool: execute_sql',
        '    args: {database_id: warehouse}',
        '    min_count: 2',
      ].join('\n'),
      { relativePath: 'contracts/eu/orders.yaml', databaseNames: ['warehouse'] },
    );
    expect(parsed.success && parsed.test).toMatchObject({
      name: 'eu_orders',
      database: 'warehouse',
      ordered: true,
      comparison: { rtol: 0.001, decimals: 4 },
      assertions: [
        { type: 'tool_call', tool: 'execute_sql', args: { database_id: 'warehouse' }, minCount: 2 },
      ],
      relativePath: 'contracts/eu/orders.yaml',
      folders: ['contracts', 'eu'],
    });
  });

  it.each([
    ['name defaults to the file stem', 'prompt: q', { name: 'orders' }],
    [
      'null optional fields read as absent',
      'prompt: q\nname:\nsql:\ndatabase:\nassertions:\nordered:\ncomparison:\n',
      {
        name: 'orders',
        sql: null,
        database: null,
        assertions: [],
        ordered: false,
        comparison: null,
      },
    ],
    [
      'a judged test: expected_answer without sql',
      'prompt: Who is our biggest customer?\nexpected_answer: Acme Corp, with about 1.2M in revenue',
      { sql: null, expectedAnswer: 'Acme Corp, with about 1.2M in revenue', allowClarification: false },
    ],
    [
      'a judged test whose answer need not come from data',
      'prompt: What does ARR stand for?\nexpected_answer: annual recurring revenue\nrequires_data: false',
      { expectedAnswer: 'annual recurring revenue', requiresData: false },
    ],
    [
      'allow_clarification with an asked_clarification assertion',
      'prompt: Revenue of the quarter?\nallow_clarification: true\nassertions:\n  - type: asked_clarification\n',
      { allowClarification: true, assertions: [{ type: 'asked_clarification', expected: true }] },
    ],
    [
      'every new assertion type',
      [
        'prompt: q',
        'assertions:',
        '  - {type: row_count, equals: 3}',
        '  - {type: row_count, min: 1, max: 10}',
        '  - {type: columns, names: [month, revenue]}',
        '  - {type: response_matches, pattern: "\\\\b42\\\\b", ignore_case: true}',
        '  - {type: response_not_matches, pattern: sorry}',
        '  - {type: no_error}',
        '  - {type: max_tool_calls, max: 5}',
        '  - {type: max_tool_calls, max: 1, tool: execute_sql}',
        '  - {type: max_cost_usd, max: 0.05}',
        '  - {type: max_tokens, max: 20000}',
      ].join('\n'),
      {
        assertions: [
          { type: 'row_count', equals: 3, min: null, max: null },
          { type: 'row_count', equals: null, min: 1, max: 10 },
          { type: 'columns', names: ['month', 'revenue'] },
          { type: 'response_matches', pattern: '\\b42\\b', ignoreCase: true },
          { type: 'response_not_matches', pattern: 'sorry', ignoreCase: false },
          { type: 'no_error' },
          { type: 'max_tool_calls', max: 5, tool: null },
          { type: 'max_tool_calls', max: 1, tool: 'execute_sql' },
          { type: 'max_cost_usd', max: 0.05 },
          { type: 'max_tokens', max: 20000 },
        ],
      },
    ],
    ['an empty comparison overrides nothing', 'prompt: q\ncomparison: {}', { comparison: null }],
    [
      'a partial comparison keeps only its keys',
      'prompt: q\ncomparison: {atol: 0}',
      { comparison: { atol: 0 } },
    ],
    [
      'text is trimmed',
      'name: "  spaced  "\nprompt: "  q  "\nsql: "  SELECT 1 ;  "',
      {
        name: 'spaced',
        prompt: 'q',
        sql: 'SELECT 1 ;',
      },
    ],
    ['YAML 1.2: yes/no stay text', 'prompt: yes', { prompt: 'yes' }],
    ['a date-like prompt stays text', 'prompt: 2024-01-01', { prompt: '2024-01-01' }],
    ['a leading document marker', '---\nprompt: q\n', { prompt: 'q' }],
    ['a trailing document marker', 'prompt: q\n---\n', { prompt: 'q' }],
    ['a byte order mark', '\ufeffprompt: q', { prompt: 'q' }],
    ['CRLF line endings', 'prompt: q\r\nsql: SELECT 1\r\n', { prompt: 'q', sql: 'SELECT 1' }],
    ['anchors and aliases', 'x: &q How many orders?\nprompt: *q', { prompt: 'How many orders?' }],
  ])('%s', (_label, text, expected) => {
    const parsed = parse(text);
    expect(parsed.success && parsed.test).toMatchObject(expected);
  });
});

describe('parseTestFile: problems', () => {
  it.each([
    [
      'an empty file',
      '',
      ['-: is empty: a test file is a mapping with at least `prompt` (and usually `sql`)'],
    ],
    [
      'a file of comments',
      '# todo\n',
      ['-: is empty: a test file is a mapping with at least `prompt` (and usually `sql`)'],
    ],
    [
      'a list',
      '- prompt: q\n',
      [
        '-: must be a mapping of fields (name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data), found a list',
      ],
    ],
    [
      'a scalar',
      'just a question\n',
      [
        '-: must be a mapping of fields (name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data), found the text "just a question"',
      ],
    ],
    ['a missing prompt', 'sql: SELECT 1', ['prompt: is required: the question the agent must answer']],
    ['an empty prompt', 'prompt: ""', ['prompt: is empty: write the question the agent must answer']],
    ['a blank prompt', 'prompt: "   "', ['prompt: is empty: write the question the agent must answer']],
    ['a null prompt', 'prompt:', ['prompt: is empty: write the question the agent must answer']],
    ['a numeric prompt', 'prompt: 42', ['prompt: must be text, found number 42 (put it in quotes)']],
    ['a list prompt', 'prompt: [a, b]', ['prompt: must be text, found a list']],
    ['a binary prompt', 'prompt: !!binary aGVsbG8=', ['prompt: must be text, found binary data']],
    ['a numeric name', 'name: 2024\nprompt: q', ['name: must be text, found number 2024 (put it in quotes)']],
    [
      'an empty name',
      'name: ""\nprompt: q',
      ['name: must not be empty (or leave `name` out to use the file name)'],
    ],
    [
      'an empty sql',
      'prompt: q\nsql: ""',
      [
        'sql: is empty: write the reference SQL, or leave `sql` out to judge the run by its assertions or an `expected_answer`',
      ],
    ],
    [
      'a mapping as sql',
      'prompt: q\nsql: {select: 1}',
      ['sql: must be text (the reference SQL), found a mapping'],
    ],
    [
      'ordered as text',
      'prompt: q\nordered: "true"',
      ['ordered: must be true or false, found the text "true"'],
    ],
    [
      'YAML 1.1 yes is not a boolean',
      'prompt: q\nordered: yes',
      ['ordered: must be true or false, found the text "yes"'],
    ],
    [
      'comparison as a list',
      'prompt: q\ncomparison: [1]',
      ['comparison: must be a mapping such as {rtol: 0.001, atol: 0.0001, decimals: 2}'],
    ],
    ['a negative rtol', 'prompt: q\ncomparison: {rtol: -0.1}', ['comparison.rtol: must be >= 0']],
    ['a negative atol', 'prompt: q\ncomparison: {atol: -1}', ['comparison.atol: must be >= 0']],
    [
      'fractional decimals',
      'prompt: q\ncomparison: {decimals: 1.5}',
      ['comparison.decimals: must be an integer'],
    ],
    ['negative decimals', 'prompt: q\ncomparison: {decimals: -1}', ['comparison.decimals: must be >= 0']],
    [
      'an unknown comparison key',
      'prompt: q\ncomparison: {decimal: 3}',
      ['comparison.decimal: unknown key; did you mean `decimals`? (known keys: rtol, atol, decimals)'],
    ],
    [
      'assertions as a mapping',
      'prompt: q\nassertions: {type: tool_call}',
      ['assertions: must be a list of assertions, e.g. - {type: tool_call, tool: execute_sql}'],
    ],
    [
      'an unknown assertion type',
      'prompt: q\nassertions:\n  - type: llm_judge\n',
      [
        'assertions[0].type: unknown assertion type "llm_judge" (supported: tool_call, row_count, columns, response_matches, response_not_matches, no_error, max_tool_calls, max_cost_usd, max_tokens, asked_clarification)',
      ],
    ],
    [
      'a bad min_count',
      'prompt: q\nassertions:\n  - {type: tool_call, tool: read}\n  - {type: tool_call, tool: read, min_count: 0}\n',
      ['assertions[1].min_count: must be an integer >= 1'],
    ],
    [
      'an unknown assertion field',
      'prompt: q\nassertions:\n  - {type: tool_call, tool: read, arg: {}}\n',
      ['assertions[0].arg: unknown field of a tool_call assertion (allowed: type, tool, args, min_count)'],
    ],
    [
      'sql and expected_answer together',
      'prompt: q\nsql: SELECT 1\nexpected_answer: one',
      [
        'expected_answer: cannot be used with `sql`: a test with `sql` is verified against the reference data, one with `expected_answer` is graded by a judge model; keep one of them',
      ],
    ],
    [
      'an empty expected_answer',
      'prompt: q\nexpected_answer: " "',
      ['expected_answer: is empty: write what a correct answer says, or leave `expected_answer` out'],
    ],
    [
      'requires_data as text',
      'prompt: q\nexpected_answer: a\nrequires_data: "no"',
      ['requires_data: must be true or false, found the text "no"'],
    ],
    [
      'allow_clarification as text',
      'prompt: q\nallow_clarification: "yes"',
      ['allow_clarification: must be true or false, found the text "yes"'],
    ],
    [
      'asked_clarification without allow_clarification',
      'prompt: q\nassertions:\n  - {type: no_error}\n  - {type: asked_clarification, expected: false}\n',
      [
        'assertions[1]: an asked_clarification assertion needs `allow_clarification: true`: without it the agent has no clarification tool in tests',
      ],
    ],
    [
      'row_count without a count',
      'prompt: q\nassertions:\n  - {type: row_count}\n',
      ['assertions[0]: needs `equals`, or `min` and/or `max` (row counts)'],
    ],
    [
      'patterns RE2 cannot run, each named with what to do',
      'prompt: q\nassertions:\n  - {type: response_matches, pattern: "(?i)total ("}\n  - {type: response_matches, pattern: "(?<=\\\\$)\\\\d+"}\n',
      [
        'assertions[0].pattern: the pattern /(?i)total (/ is not a valid RE2 regular expression (missing closing ): `(?i)total (`); fix it (RE2 syntax: https://github.com/google/re2/wiki/Syntax)',
        'assertions[1].pattern: the pattern /(?<=\\$)\\d+/ uses lookbehind (?<=…): RE2 syntax has no lookahead or lookbehind; match the surrounding text instead',
      ],
    ],
    [
      'an unknown field of a new assertion type',
      'prompt: q\nassertions:\n  - {type: max_tokens, maximum: 10}\n',
      [
        'assertions[0].max: must be an integer >= 1',
        'assertions[0].maximum: unknown field of a max_tokens assertion (allowed: type, max)',
      ],
    ],
    [
      'an unknown database',
      'prompt: q\ndatabase: wh',
      ['database: unknown database "wh" (configured: warehouse, local)'],
      ['warehouse', 'local'],
    ],
    [
      'a database when none is configured',
      'prompt: q\ndatabase: wh',
      ['database: unknown database "wh" (no databases are configured in nao_config.yaml)'],
      [],
    ],
  ])('%s', (_label, text, expected, databaseNames?: string[]) => {
    expect(problemsOf(text, databaseNames === undefined ? {} : { databaseNames })).toEqual(expected);
  });

  it.each([
    [
      'an unclosed flow sequence',
      'prompt: q\nsql: [SELECT 1\n',
      'invalid YAML at line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    [
      'a duplicate key',
      'prompt: q\nprompt: r\n',
      'invalid YAML at line 2, column 1: Map keys must be unique',
    ],
    ['an unclosed quote', 'prompt: "q\n', 'invalid YAML at line 2, column 1: Missing closing "quote'],
    [
      'bad indentation',
      'prompt: q\n  sql: x\n',
      'invalid YAML at line 1, column 9: Nested mappings are not allowed in compact mappings',
    ],
    [
      'a tab indent',
      'prompt: q\nassertions:\n\t- type: tool_call\n',
      'invalid YAML at line 3, column 1: Tabs are not allowed as indentation',
    ],
    [
      'an alias to nowhere',
      'prompt: *missing\n',
      'invalid YAML: Unresolved alias (the anchor must be set before the alias): missing',
    ],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}]\nc: &c [${'*b, '.repeat(9)}]\nd: [${'*c, '.repeat(9)}]\nprompt: q\n`,
      'invalid YAML: Excessive alias count indicates a resource exhaustion attack',
    ],
  ])('reports invalid YAML with its line and column: %s', (_label, text, expected) => {
    const problems = problemsOf(text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toContain(`-: ${expected}`);
  });

  it('reports the document-separator line when a file holds several tests', () => {
    expect(problemsOf('prompt: a\n---\nprompt: b\n')).toEqual([
      '-: holds 2 YAML documents (a second one starts at line 2, column 1); put each test in its own file',
    ]);
  });

  it('reports every problem of a file at once', () => {
    expect(
      problemsOf(
        'name: 5\nordered: 1\ncomparison: {rtol: -1, foo: 2}\nassertions:\n  - {type: tool_call, min_count: 0}\n',
      ),
    ).toEqual([
      'comparison.foo: unknown key (known keys: rtol, atol, decimals)',
      'name: must be text, found number 5 (put it in quotes)',
      'prompt: is required: the question the agent must answer',
      'assertions[0].tool: must be a non-empty string (the tool name, e.g. execute_sql)',
      'assertions[0].min_count: must be an integer >= 1',
      'ordered: must be true or false, found number 1',
      'comparison.rtol: must be >= 0',
    ]);
  });

  it('reports a misspelt prompt once, as the key to rename', () => {
    const parsed = parse('promt: How many orders?\nsql: SELECT 1');
    expect(parsed).toEqual({
      success: false,
      problems: [
        {
          file: 'orders.yml',
          field: 'promt',
          message:
            'unknown key, did you mean `prompt`? Rename it: nao would ignore it and run the test without its `prompt`',
        },
      ],
      warnings: [],
    });
  });

  it('points a missing prompt at a farther misspelling, which stays a warning', () => {
    const parsed = parse('my_prompt: How many orders?\nsql: SELECT 1');
    expect(parsed.success).toBe(false);
    expect(problemsOf('my_prompt: How many orders?\nsql: SELECT 1')).toEqual([
      'prompt: is required: the question the agent must answer (the file has `my_prompt`: did you mean `prompt`?)',
    ]);
    expect(parsed.warnings[0]).toContain('unknown key `my_prompt` is ignored; did you mean `prompt`?');
  });
});

describe('parseTestFile: misspelt keys are problems, other unknown keys warnings', () => {
  // A misspelt key would be ignored: the test would run without its SQL (unverified, exit 0).
  it.each([
    ['sqll', 'sql'],
    ['SQL', 'sql'],
    ['promt', 'prompt'],
    ['expected_answr', 'expected_answer'],
    ['asserts', 'assertions'],
    ['assertion', 'assertions'],
    ['databse', 'database'],
    ['databases', 'database'],
    ['query', 'sql'],
    ['question', 'prompt'],
    ['allow_clarifications', 'allow_clarification'],
  ])('`%s` is a problem that names `%s`', (key, meant) => {
    expect(problemsOf(`prompt: q\nsql: SELECT 1\n${key}: x\n`)).toContain(
      `${key}: unknown key, did you mean \`${meant}\`? Rename it: nao would ignore it and run the test without its \`${meant}\``,
    );
  });

  // Keys of the original's projects and of people's own tooling: nothing close enough to be a typo.
  it.each([['tests'], ['schema_output'], ['description'], ['tags'], ['owner'], ['expected_rows'], ['order']])(
    '`%s` stays a warning and the test loads',
    (key) => {
      const parsed = parse(`prompt: q\nsql: SELECT 1\n${key}: x\n`);
      expect(parsed.success).toBe(true);
      expect(parsed.warnings).toHaveLength(1);
      expect(parsed.warnings[0]).toMatch(new RegExp(`^orders\\.yml: unknown key \`${key}\` is ignored`));
    },
  );
});

describe('parseTestFile: warnings', () => {
  it('warns about unknown top-level keys and still loads the test', () => {
    const parsed = parse('prompt: q\nsql: SELECT 1\ndescription: revenue check\nsql_reference: x\n');
    expect(parsed.success).toBe(true);
    expect(parsed.warnings).toEqual([
      'orders.yml: unknown key `description` is ignored (known keys: name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data)',
      'orders.yml: unknown key `sql_reference` is ignored (known keys: name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data)',
    ]);
  });

  it('passes YAML warnings on with their position', () => {
    const parsed = parse('prompt: !custom q\n');
    expect(parsed.success).toBe(true);
    expect(parsed.warnings).toEqual([
      'orders.yml: YAML warning at line 1, column 9: Unresolved tag: !custom',
    ]);
  });

  it('warns about a non-text key without crashing', () => {
    const parsed = parse('prompt: q\n? [a, b]\n: c\n');
    expect(parsed.success).toBe(true);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toContain('unknown key `[ a, b ]` is ignored');
  });

  it('warns when a name cannot be typed in --select', () => {
    const parsed = parse('name: revenue, by month\nprompt: q');
    expect(parsed.success).toBe(true);
    expect(parsed.warnings).toEqual([
      'orders.yml: the name "revenue, by month" contains a comma, which separates names in --select; select it by file name instead',
    ]);
  });
});
