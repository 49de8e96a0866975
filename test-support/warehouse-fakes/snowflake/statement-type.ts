/**
 * The `statementTypeId` a Snowflake account reports for a statement (the ids of the JDBC
 * driver's SFStatementType: SELECT 0x1000, DML 0x3xxx, SCL 0x4xxx, TCL 0x5000, DDL 0x6000,
 * stage commands 0x7xxx), found from the statement's leading keywords.
 */
export const STATEMENT_TYPE_IDS = {
  unknown: 0x0000,
  select: 0x1000,
  insert: 0x3100,
  update: 0x3200,
  delete: 0x3300,
  merge: 0x3400,
  multiInsert: 0x3500,
  copy: 0x3600,
  alterSession: 0x4100,
  use: 0x4300,
  show: 0x4400,
  describe: 0x4500,
  list: 0x4701,
  tcl: 0x5000,
  ddl: 0x6000,
  get: 0x7101,
  put: 0x7102,
  remove: 0x7103,
} as const;

const BY_KEYWORD: [RegExp, number][] = [
  [/^(select|with|values|\()/, STATEMENT_TYPE_IDS.select],
  [/^insert\s+(all|first|overwrite\s+(all|first))\b/, STATEMENT_TYPE_IDS.multiInsert],
  [/^insert\b/, STATEMENT_TYPE_IDS.insert],
  [/^update\b/, STATEMENT_TYPE_IDS.update],
  [/^delete\b/, STATEMENT_TYPE_IDS.delete],
  [/^merge\b/, STATEMENT_TYPE_IDS.merge],
  [/^copy\b/, STATEMENT_TYPE_IDS.copy],
  [/^alter\s+session\b/, STATEMENT_TYPE_IDS.alterSession],
  [/^use\b/, STATEMENT_TYPE_IDS.use],
  [/^show\b/, STATEMENT_TYPE_IDS.show],
  [/^desc(ribe)?\b/, STATEMENT_TYPE_IDS.describe],
  [/^(list|ls)\b/, STATEMENT_TYPE_IDS.list],
  [/^(begin|start\s+transaction|commit|rollback)\b/, STATEMENT_TYPE_IDS.tcl],
  [
    /^(create|drop|alter|truncate|undrop|grant|revoke|comment|call|execute|set|unset)\b/,
    STATEMENT_TYPE_IDS.ddl,
  ],
  [/^get\b/, STATEMENT_TYPE_IDS.get],
  [/^put\b/, STATEMENT_TYPE_IDS.put],
  [/^(remove|rm)\b/, STATEMENT_TYPE_IDS.remove],
];

/** The statement type of one statement, comments and leading blanks skipped. */
export function statementTypeOf(sql: string): number {
  const text = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '').toLowerCase();
  for (const [pattern, id] of BY_KEYWORD) if (pattern.test(text)) return id;
  return STATEMENT_TYPE_IDS.unknown;
}

/** The statements of `sql`, split on semicolons outside quotes and comments; empty ones dropped. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    const rest = sql.slice(index);
    const quoted = /^'(?:[^'\\]|\\.|'')*'|^"(?:[^"]|"")*"|^--[^\n]*|^\/\*[\s\S]*?\*\//.exec(rest);
    if (quoted) {
      current += quoted[0];
      index += quoted[0].length;
    } else if (char === ';') {
      statements.push(current);
      current = '';
      index++;
    } else {
      current += char;
      index++;
    }
  }
  statements.push(current);
  return statements.filter((statement) => statement.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '').trim() !== '');
}
