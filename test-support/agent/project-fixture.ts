import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REFERENCE_SQL = 'SELECT SUM(amount) AS secret_reference_total FROM orders';
/** Values inside the fixture's secret files; none may ever reach a tool output. */
export const SECRET_VALUES = ['sk-secret', 'hunter2', 'PRIVATE KEY', 'TOKEN-123', 'dbt-password'];

/**
 * A project folder with context files next to everything the agent must not see: the
 * tests/ folder with reference SQL, nao_config.yaml, secrets, and symlinks out of it.
 * `outsideDir` is a sibling folder outside the project.
 */
export async function createProjectFixture(): Promise<{
  projectDir: string;
  outsideDir: string;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), 'nao-agent-'));
  const projectDir = path.join(root, 'project');
  const outsideDir = path.join(root, 'outside');
  const files: Record<string, string> = {
    'RULES.md':
      "# Rules\nRevenue means SUM(orders.amount) for status = 'paid'.\nFiscal year starts in April.\n",
    'docs/metrics.md':
      '# Metrics\n\n## revenue\nPaid orders only.\n\n## churn\nCustomers without orders for 90 days.\n',
    'models/orders.sql': 'select id, customer_id, amount, status from raw.orders\n',
    'models/schema.yml': 'models:\n  - name: orders\n    description: One row per order\n',
    'tests/total_revenue.yml': `name: total_revenue\nprompt: What is the revenue?\nsql: ${REFERENCE_SQL}\n`,
    'tests/outputs/results_20250101_000000.json': '{"results": []}',
    'nao_config.yaml': 'databases:\n  - type: duckdb\n    name: warehouse\n    path: data.duckdb\n',
    '.env': 'OPENAI_API_KEY=sk-secret\n',
    '.env.local': 'PASSWORD=hunter2\n',
    'keys/server.pem': '-----BEGIN PRIVATE KEY-----\n',
    'keys/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\n',
    'credentials.json': '{"token": "TOKEN-123"}',
    'profiles.yml': 'default:\n  outputs:\n    dev:\n      password: dbt-password\n',
    '.nao/auth.json': '{"token": "TOKEN-123"}',
    '.git/config': '[core]\n',
    'node_modules/pkg/README.md': 'dependency readme\n',
    'data/blob.bin': 'PK\u0000\u0003binary',
  };
  for (const [relative, content] of Object.entries(files)) {
    const absolute = path.join(projectDir, relative);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
  }
  await mkdir(outsideDir, { recursive: true });
  await writeFile(path.join(outsideDir, 'passwd'), 'root:x:0:0\n');
  await symlink(path.join(outsideDir, 'passwd'), path.join(projectDir, 'docs/link-outside.md'));
  await symlink(outsideDir, path.join(projectDir, 'docs/outside-folder'));
  await symlink(path.join(projectDir, 'tests/total_revenue.yml'), path.join(projectDir, 'docs/answers.md'));
  await symlink(path.join(projectDir, 'docs/metrics.md'), path.join(projectDir, 'metrics-link.md'));
  return { projectDir, outsideDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}
