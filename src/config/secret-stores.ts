import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What resolving one `{{ aws(...) }}` / `{{ k8s(...) }}` reference gave. */
export type SecretLookup = { value: string } | { reason: string };

export type SecretResolver = (kind: 'aws' | 'k8s', id: string) => SecretLookup;

const TIMEOUT_MS = 15_000;
const POD_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * Resolves secret-store references with the machine's own `aws` and `kubectl` command lines,
 * so their usual credentials apply (profiles, SSO, IAM roles, the pod's service account) and
 * nao ships no SDK for them. The reference syntax is the original nao's: `aws('name/field')`
 * (field: a dot path into the JSON secret; the name may be an ARN) and
 * `k8s('[namespace/]secret/field')`. Each secret is read once per load.
 */
export function createSecretResolver(options: { env: Record<string, string | undefined> }): SecretResolver {
  const cache = new Map<string, unknown>();
  const run = (command: string, args: string[]): string =>
    execFileSync(command, args, {
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env as NodeJS.ProcessEnv,
    });

  const cached = (key: string, load: () => unknown): unknown => {
    if (!cache.has(key)) {
      try {
        cache.set(key, load());
      } catch (error) {
        cache.set(key, error instanceof Error ? error : new Error(String(error)));
      }
    }
    const value = cache.get(key);
    if (value instanceof Error) throw value;
    return value;
  };

  return (kind, id) => {
    try {
      return kind === 'aws' ? { value: awsValue(id) } : { value: k8sValue(id) };
    } catch (error) {
      return { reason: failure(kind, error) };
    }
  };

  function awsValue(id: string): string {
    const slash = id.lastIndexOf('/');
    if (slash <= 0 || slash === id.length - 1) throw new Error(`expected 'secret_name/field', got '${id}'`);
    const name = id.slice(0, slash);
    const field = id.slice(slash + 1);
    const region = /^arn:aws:secretsmanager:([\w-]+):/.exec(name)?.[1];
    const payload = cached(`aws:${name}`, () => {
      const text = run('aws', [
        'secretsmanager',
        'get-secret-value',
        '--secret-id',
        name,
        '--query',
        'SecretString',
        '--output',
        'text',
        ...(region === undefined ? [] : ['--region', region]),
      ]);
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object')
        throw new Error(`AWS secret '${name}' is not a JSON object`);
      return parsed;
    });
    let value: unknown = payload;
    for (const part of field.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    if (value === undefined) throw new Error(`AWS secret '${name}' has no field '${field}'`);
    if (value === null || typeof value === 'object')
      throw new Error(`AWS secret '${name}' field '${field}' is not a single value`);
    return String(value);
  }

  function k8sValue(id: string): string {
    const parts = id.split('/');
    if ((parts.length !== 2 && parts.length !== 3) || parts.some((part) => part === '')) {
      throw new Error(`expected 'secret/field' or 'namespace/secret/field', got '${id}'`);
    }
    const [namespace, secret, field] = parts.length === 3 ? parts : [podNamespace(), ...parts];
    const data = cached(`k8s:${namespace}/${secret}`, () => {
      const parsed = JSON.parse(
        run('kubectl', ['get', 'secret', secret!, '-n', namespace!, '-o', 'json']),
      ) as {
        data?: Record<string, string>;
      };
      return parsed.data ?? {};
    }) as Record<string, string>;
    const encoded = data[field!];
    if (encoded === undefined)
      throw new Error(`Kubernetes secret '${namespace}/${secret}' has no field '${field}'`);
    return Buffer.from(encoded, 'base64').toString('utf8');
  }
}

function podNamespace(): string {
  try {
    return readFileSync(POD_NAMESPACE_FILE, 'utf8').trim() || 'default';
  } catch {
    return 'default';
  }
}

function failure(kind: 'aws' | 'k8s', error: unknown): string {
  const tool = kind === 'aws' ? 'aws' : 'kubectl';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `the \`${tool}\` command line is not installed here, so nao cannot read it`;
  const stderr = (error as { stderr?: unknown }).stderr;
  const detail =
    typeof stderr === 'string' && stderr.trim() !== ''
      ? stderr.trim().split('\n')[0]
      : (error as Error).message;
  return `\`${tool}\` could not read it: ${detail}`;
}
