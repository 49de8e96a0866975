/**
 * A warehouse role with rights beyond reading (a PostgreSQL superuser, a MariaDB account with
 * FILE or SUPER…) can reach the server's files and settings through statements a read-only
 * transaction lets through, and the agent's SQL is written by a model that the data it reads
 * can steer. nao refuses to connect as one unless the database's config says
 * `allow_privileged_role: true`; then it warns once per run.
 */
import type { DatabaseDialect } from './database.js';
import { WarehouseError } from './warehouse-error.js';

export interface PrivilegedRole {
  database: string;
  dialect: DatabaseDialect;
  /** Where nao connected, free of secrets (host:port/database as user …). */
  target: string;
  /** The role as the server names it. */
  role: string;
  /** What makes it privileged, as the server names it (superuser, FILE, pg_execute_server_program…). */
  rights: string[];
  /** The statements that create and grant a least-privilege role, one per line. */
  grants: string[];
}

/** What a database entry says about privileged roles, passed to the engines that check their role. */
export interface RoleCheckOptions {
  /** `allow_privileged_role` of the entry: connect anyway, with a warning. */
  allowPrivilegedRole: boolean;
  /** Told the warning when a privileged role is allowed. */
  onWarning: ((warning: string) => void) | undefined;
}

/** CONNECTION_FAILED for a privileged role, naming the grants to use instead. */
export function privilegedRoleRefused(role: PrivilegedRole): WarehouseError {
  return new WarehouseError({
    code: 'CONNECTION_FAILED',
    database: role.database,
    dialect: role.dialect,
    engineMessage: `role ${role.role} is privileged (${role.rights.join(', ')})`,
    message:
      `Database "${role.database}" (${role.dialect} at ${role.target}): nao refuses to connect as ${role.role}, ` +
      `which holds ${role.rights.join(', ')}: such a role can read or write the server's files and settings ` +
      "even inside nao's read-only transactions, and the agent's SQL is written by a model. Connect as a " +
      `least-privilege role instead:\n${role.grants.map((line) => `  ${line}`).join('\n')}\n` +
      'and put its user and password in nao_config.yaml, or set `allow_privileged_role: true` on this ' +
      'database to connect anyway (nao then warns on every run).',
  });
}

/** The warning of a privileged role that the config allows. */
export function privilegedRoleWarning(role: PrivilegedRole): string {
  return (
    `database "${role.database}" (${role.dialect}) connects as ${role.role}, which holds ${role.rights.join(', ')}, ` +
    'because `allow_privileged_role: true` is set. nao still refuses statements that are not queries and ' +
    "the functions that reach the server's files and settings, but give it a least-privilege role " +
    '(see "Least-privilege roles" in docs/warehouses.md).'
  );
}

/** Refuses a privileged role, or tells the warning when the config allows it; nothing for a least-privilege role. */
export function enforceRolePolicy(role: PrivilegedRole, options: RoleCheckOptions): void {
  if (role.rights.length === 0) return;
  if (!options.allowPrivilegedRole) throw privilegedRoleRefused(role);
  options.onWarning?.(privilegedRoleWarning(role));
}
