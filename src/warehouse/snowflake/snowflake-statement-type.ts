/**
 * Snowflake's statement types (the `statementTypeId` of a query response, as the JDBC driver's
 * SFStatementType names them) and the ones nao lets run: queries, SHOW and DESCRIBE. Snowflake
 * has no read-only session, so this check, made on the type the account reports when it
 * compiles the statement (`describeOnly`) before anything runs, is what keeps nao read-only.
 */
const TYPE_NAMES: [id: number, name: string][] = [
  [0x1000, 'SELECT'],
  [0x3100, 'INSERT'],
  [0x3200, 'UPDATE'],
  [0x3300, 'DELETE'],
  [0x3400, 'MERGE'],
  [0x3500, 'multi-table INSERT'],
  [0x3600, 'COPY'],
  [0x3700, 'UNLOAD'],
  [0x3800, 'RECLUSTER'],
  [0x4100, 'ALTER SESSION'],
  [0x4300, 'USE'],
  [0x4400, 'SHOW'],
  [0x4500, 'DESCRIBE'],
  [0x4701, 'LIST'],
  [0x7101, 'GET'],
  [0x7102, 'PUT'],
  [0x7103, 'REMOVE'],
];

const READ_ONLY_TYPES = new Set([0x1000, 0x4400, 0x4500]);

export function isReadOnlyStatementType(id: number): boolean {
  return READ_ONLY_TYPES.has(id);
}

/** 'a DELETE statement' for messages; the category when the exact type has no name here. */
export function describeStatementType(id: number): string {
  const named = TYPE_NAMES.find(([known]) => known === id)?.[1];
  const hex = `0x${id.toString(16)}`;
  if (named) return `a ${named} statement (statementTypeId ${hex})`;
  if (id >= 0x3000 && id < 0x4000) return `a DML statement (statementTypeId ${hex})`;
  if (id >= 0x4000 && id < 0x5000) return `a session command (statementTypeId ${hex})`;
  if (id >= 0x5000 && id < 0x6000) return `a transaction command (statementTypeId ${hex})`;
  if (id >= 0x6000 && id < 0x7000) return `a DDL statement or procedure call (statementTypeId ${hex})`;
  if (id >= 0x7000 && id < 0x8000) return `a stage command (statementTypeId ${hex})`;
  return `a statement of unknown type (statementTypeId ${hex})`;
}
