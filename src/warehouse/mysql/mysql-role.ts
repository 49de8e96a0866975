/** What the MySQL/MariaDB account nao connected as may do beyond reading (see privileged-role.ts). */
import type mysql from 'mysql2/promise';
import type { PrivilegedRole } from '../privileged-role.js';

/** Global privileges that only read: anything else on `*.*` writes, administers, or reaches the server's files. */
const READING_PRIVILEGES = new Set(['USAGE', 'SELECT', 'SHOW VIEW', 'SHOW DATABASES']);

/** The account of `connection`'s session, its privileged rights (from SHOW GRANTS), and the grants of a least-privilege one. */
export async function mysqlRole(
  connection: mysql.Pool | mysql.PoolConnection,
  context: Pick<PrivilegedRole, 'database' | 'dialect' | 'target'>,
): Promise<PrivilegedRole> {
  const [identity] = await connection.query<mysql.RowDataPacket[]>(
    'SELECT CURRENT_USER() AS account, DATABASE() AS db',
  );
  const account = String(identity[0]?.account ?? '?');
  const database =
    identity[0]?.db === null || identity[0]?.db === undefined ? '<database>' : String(identity[0].db);
  const [grants] = await connection.query<mysql.RowDataPacket[]>({ sql: 'SHOW GRANTS', rowsAsArray: true });
  const rights = new Set<string>();
  for (const [line] of grants as unknown as [string][]) rightsOfGrant(String(line), rights);
  return {
    ...context,
    role: `account ${account}`,
    rights: [...rights],
    grants: [
      "CREATE USER 'nao_reader'@'%' IDENTIFIED BY '<a password>';",
      `GRANT SELECT, SHOW VIEW ON \`${database.replaceAll('`', '``')}\`.* TO 'nao_reader'@'%';`,
    ],
  };
}

/** Adds to `rights` what one line of SHOW GRANTS gives beyond reading. */
export function rightsOfGrant(line: string, rights: Set<string>): void {
  if (/\bWITH\b.*\bGRANT OPTION\b/i.test(line)) rights.add('GRANT OPTION');
  const grant = /^GRANT\s+(.+?)\s+ON\s+(\S+)\s+TO\s/i.exec(line);
  if (grant === null) return;
  const [, privileges, on] = grant as unknown as [string, string, string];
  if (/^PROXY$/i.test(privileges.trim())) {
    rights.add('PROXY');
    return;
  }
  // Only privileges on every database (`*.*`) reach the server's files, settings and accounts.
  if (on.replaceAll('`', '') !== '*.*') return;
  for (const privilege of privileges.split(',')) {
    const name = privilege
      .trim()
      .replace(/\s*\(.*\)$/, '')
      .toUpperCase();
    if (name !== '' && !READING_PRIVILEGES.has(name)) rights.add(name);
  }
}
