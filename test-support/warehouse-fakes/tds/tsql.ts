/**
 * The little T-SQL the fake understands: batches cut into statements, what SQL Server refuses
 * a `db_datareader` login (with SQL Server's error numbers and words), and the spellings that
 * differ from DuckDB's (N'…', 0x…, DATETIME2(n), NVARCHAR, BIT, FLOAT/REAL, TINYINT, @@TRANCOUNT).
 */

/** Statements of a batch, cut at semicolons outside quotes. */
export function splitBatch(batch: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of batch) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '[') {
      quote = char === '[' ? ']' : char;
    } else if (char === ';') {
      if (current.trim() !== '') statements.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}

export interface SqlServerError {
  number: number;
  severity: number;
  state?: number;
  message: string;
}

const WORD = String.raw`\[?([\w#.]+)\]?`;

/** The object a statement names after its leading words, without schema or brackets. */
function objectName(statement: string, after: RegExp): string {
  const match = new RegExp(`${after.source}\\s+${WORD}`, 'i').exec(statement);
  return (match?.at(-1) ?? '?').split('.').at(-1)!;
}

/**
 * What SQL Server answers a login that is only in `db_datareader` (and public) for a statement
 * that needs more, or undefined when such a login may run it. Temporary tables (#name) are
 * every login's, as in SQL Server.
 */
export function deniedToReader(statement: string, database: string): SqlServerError | undefined {
  const text = statement.trim();
  const upper = text.toUpperCase();
  const first = /^\w+/.exec(upper)?.[0] ?? '';
  const denied = (number: number, message: string, severity = 14): SqlServerError => ({
    number,
    severity,
    message,
  });
  switch (first) {
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'MERGE': {
      if (upper.startsWith('BULK')) break;
      const name =
        first === 'UPDATE'
          ? objectName(text, /^UPDATE/)
          : objectName(text, /^(INSERT|DELETE|MERGE)(\s+(INTO|FROM))?/);
      if (name.startsWith('#')) return undefined;
      return denied(
        229,
        `The ${first} permission was denied on the object '${name}', database '${database}', schema 'dbo'.`,
      );
    }
    case 'BULK':
      return denied(4834, 'You do not have permission to use the bulk load statement.', 16);
    case 'CREATE': {
      const kind = /^CREATE\s+(\w+)/.exec(upper)?.[1] ?? '';
      if (kind === 'TABLE' && objectName(text, /^CREATE\s+TABLE/).startsWith('#')) return undefined;
      if (kind === 'DATABASE') return denied(262, "CREATE DATABASE permission denied in database 'master'.");
      return denied(262, `CREATE ${kind} permission denied in database '${database}'.`);
    }
    case 'DROP': {
      const kind = (/^DROP\s+(\w+)/.exec(upper)?.[1] ?? '').toLowerCase();
      const name = objectName(text, /^DROP\s+\w+(\s+IF\s+EXISTS)?/);
      if (name.startsWith('#')) return undefined;
      return denied(
        3701,
        `Cannot drop the ${kind} '${name}', because it does not exist or you do not have permission.`,
        11,
      );
    }
    case 'ALTER':
      if (/^ALTER\s+DATABASE/.test(upper)) {
        return denied(
          5011,
          `User does not have permission to alter database '${database}', the database does not exist, or the database is not in a state that allows access checks.`,
        );
      }
      return denied(
        1088,
        `Cannot find the object "${objectName(text, /^ALTER\s+\w+/)}" because it does not exist or you do not have permissions.`,
        16,
      );
    case 'TRUNCATE':
      return denied(
        1088,
        `Cannot find the object "${objectName(text, /^TRUNCATE\s+TABLE/)}" because it does not exist or you do not have permissions.`,
        16,
      );
    case 'GRANT':
    case 'DENY':
    case 'REVOKE':
      return denied(
        15151,
        'Cannot find the object, because it does not exist or you do not have permission.',
        16,
      );
    case 'RECONFIGURE':
      return denied(5812, 'You do not have permission to run the RECONFIGURE statement.');
    case 'EXEC':
    case 'EXECUTE':
      if (
        /^EXEC(UTE)?\s+(sys\.)?(sp_configure|sp_addlinkedserver|sp_attach_db|sp_addsrvrolemember)\b/i.test(
          text,
        )
      ) {
        return denied(15247, 'User does not have permission to perform this action.', 16);
      }
      if (/^EXEC(UTE)?\s+(master\.\.)?xp_cmdshell\b/i.test(text)) {
        return denied(
          229,
          "The EXECUTE permission was denied on the object 'xp_cmdshell', database 'mssqlsystemresource', schema 'sys'.",
        );
      }
      break;
    case 'SELECT':
      if (/\bINTO\s+(?!#)[\w[]/i.test(text.replace(/'[^']*'/g, "''"))) {
        return denied(262, `CREATE TABLE permission denied in database '${database}'.`);
      }
      break;
  }
  return undefined;
}

/** DuckDB's type for a T-SQL DATETIME2(n): the timestamp type that keeps n fraction digits. */
function datetime2(scale: string | undefined): string {
  const digits = scale === undefined ? 7 : Number(scale);
  if (digits === 0) return 'TIMESTAMP_S';
  if (digits <= 3) return 'TIMESTAMP_MS';
  if (digits <= 6) return 'TIMESTAMP';
  return 'TIMESTAMP_NS';
}

/** The statement in DuckDB's spelling, outside string literals. */
export function toDuckDb(statement: string, session: { trancount: number }): string {
  const parts = statement.split(/('(?:[^']|'')*')/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part;
      // N'…' (Unicode text) is DuckDB's '…'.
      const beforeLiteral = index < parts.length - 1;
      return (beforeLiteral ? part.replace(/\bN$/i, '') : part)
        .replace(/\b0x([0-9a-f]+)\b/gi, "unhex('$1')")
        .replace(/@@TRANCOUNT\b/gi, `CAST(${session.trancount} AS INTEGER)`)
        .replace(/\bDATETIME2\s*(?:\(\s*(\d)\s*\))?/gi, (_, scale: string | undefined) => datetime2(scale))
        .replace(/\bDATETIMEOFFSET\s*(?:\(\s*\d\s*\))?/gi, 'TIMESTAMPTZ')
        .replace(/\bN?VARCHAR\s*\(\s*(\d+|MAX)\s*\)/gi, 'VARCHAR')
        .replace(/\bVARBINARY\s*\(\s*(\d+|MAX)\s*\)/gi, 'BLOB')
        .replace(
          /\b(BIT|FLOAT|REAL|TINYINT)\b/gi,
          (word: string) =>
            ({ BIT: 'BOOLEAN', FLOAT: 'DOUBLE', REAL: 'FLOAT', TINYINT: 'UTINYINT' })[word.toUpperCase()]!,
        )
        .replace(/\[([^\]]+)\]/g, '"$1"')
        .replace(/\bINFORMATION_SCHEMA\.COLUMNS\b/gi, CATALOG_COLUMNS);
    })
    .join('');
}

/** INFORMATION_SCHEMA.COLUMNS as SQL Server spells its types, over DuckDB's catalog. */
const CATALOG_COLUMNS = `(SELECT table_schema AS TABLE_SCHEMA, table_name AS TABLE_NAME, column_name AS COLUMN_NAME,
    ordinal_position AS ORDINAL_POSITION,
    CASE WHEN data_type = 'INTEGER' THEN 'int' WHEN data_type = 'VARCHAR' THEN 'nvarchar'
         WHEN data_type LIKE 'DECIMAL%' THEN 'decimal' WHEN data_type = 'BOOLEAN' THEN 'bit'
         WHEN data_type = 'DOUBLE' THEN 'float' WHEN data_type = 'TIMESTAMP' THEN 'datetime2'
         ELSE lower(data_type) END AS DATA_TYPE,
    CASE WHEN data_type = 'VARCHAR' THEN -1 END AS CHARACTER_MAXIMUM_LENGTH,
    CASE WHEN data_type LIKE 'DECIMAL%' THEN CAST(numeric_precision AS TINYINT) END AS NUMERIC_PRECISION,
    CASE WHEN data_type LIKE 'DECIMAL%' THEN CAST(numeric_scale AS INTEGER) END AS NUMERIC_SCALE,
    CASE WHEN data_type = 'TIMESTAMP' THEN 6 END AS DATETIME_PRECISION
  FROM information_schema.columns
  WHERE table_catalog = current_database() AND table_schema NOT IN ('information_schema', 'pg_catalog'))`;
