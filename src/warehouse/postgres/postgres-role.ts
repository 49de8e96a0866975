/** What the PostgreSQL role nao connected as may do beyond reading (see privileged-role.ts). */
import pg from 'pg';
import type { PrivilegedRole } from '../privileged-role.js';

/** Roles whose members read and write server files or run programs on the server (PostgreSQL 11+). */
const SERVER_FILE_ROLES = ['pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program'];

const ROLE_QUERY = `SELECT current_user::text, current_database()::text, r.rolsuper::text,
         array_to_string(ARRAY(SELECT b.rolname::text FROM pg_catalog.pg_roles b
                                WHERE b.rolname = ANY ($1::text[])
                                  AND pg_catalog.pg_has_role(r.oid, b.oid, 'MEMBER')
                                ORDER BY 1), ',')
    FROM pg_catalog.pg_roles r
   WHERE r.rolname = current_user`;

/** The role of `client`'s session, its privileged rights, and the grants of a least-privilege one for `schema`. */
export async function postgresRole(
  client: pg.ClientBase,
  context: Pick<PrivilegedRole, 'database' | 'dialect' | 'target'> & { schema: string | undefined },
): Promise<PrivilegedRole> {
  const result = await client.query<[string, string, string, string]>({
    rowMode: 'array',
    text: ROLE_QUERY,
    values: [SERVER_FILE_ROLES],
  });
  const [user, database, superuser, members] = result.rows[0] ?? ['?', '?', 'false', ''];
  const rights = superuser === 'true' ? ['superuser'] : members.split(',').filter((name) => name !== '');
  const schema = pg.escapeIdentifier(context.schema ?? 'public');
  return {
    ...context,
    role: `role ${pg.escapeIdentifier(user)}`,
    rights,
    grants: [
      "CREATE ROLE nao_reader LOGIN PASSWORD '<a password>';",
      `GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(database)} TO nao_reader;`,
      `GRANT USAGE ON SCHEMA ${schema} TO nao_reader;`,
      `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO nao_reader;`,
    ],
  };
}
