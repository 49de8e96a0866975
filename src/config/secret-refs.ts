import { UsageError } from '../errors/index.js';
import { formatYamlPath, type YamlPath } from './yaml-source.js';

/**
 * A `{{ env('X') }}`, `{{ aws('secret/field') }}` or `{{ k8s('ns/secret/field') }}`
 * placeholder of nao_config.yaml whose value is not known: an environment variable that is
 * not set (or empty), or a secret-store reference that was not resolved (yet).
 */
export type SecretRef =
  | { kind: 'env'; name: string }
  | { kind: 'aws'; id: string; reason?: string }
  | { kind: 'k8s'; id: string; reason?: string };

/** A config value that held unresolved placeholders; it reads as `""` until they are resolved. */
export interface UnresolvedValue {
  /** YAML path of the value, e.g. `databases[0].password`. */
  path: YamlPath;
  refs: SecretRef[];
}

/** `{{ env('PGPASSWORD') }} (PGPASSWORD is not set)`, for messages that name what is missing. */
export function describeRef(ref: SecretRef): string {
  if (ref.kind === 'env') return `{{ env('${ref.name}') }} (${ref.name} is not set)`;
  return `{{ ${ref.kind}('${ref.id}') }} (${ref.reason ?? 'not resolved'})`;
}

/** `databases[0].password uses {{ env('PGPASSWORD') }} (PGPASSWORD is not set)`, one per value. */
export function describeUnresolved(values: readonly UnresolvedValue[]): string {
  return values
    .map((value) => `${formatYamlPath(value.path)} uses ${value.refs.map(describeRef).join(' and ')}`)
    .join('; ');
}

/** What to do about unresolved values, for the end of a message. */
export function unresolvedHint(values: readonly UnresolvedValue[]): string {
  const refs = values.flatMap((value) => value.refs);
  const names = [...new Set(refs.filter((ref) => ref.kind === 'env').map((ref) => ref.name))];
  const parts: string[] = [];
  if (names.length > 0)
    parts.push(`export ${names.join(', ')} (or set ${names.length > 1 ? 'them' : 'it'} in your CI secrets)`);
  if (refs.some((ref) => ref.kind !== 'env'))
    parts.push(
      'make the secret readable by the `aws` / `kubectl` command line of this machine, or pass it with {{ env(...) }}',
    );
  return parts.length === 0 ? '' : ` To use it, ${parts.join('; ')}.`;
}

/**
 * A value the run needs came from placeholders that are not resolved. Thrown where the value
 * is used (a database opened, a model called), never when the file is read. A usage error
 * (exit code 2), like every config error.
 */
export class UnresolvedValueError extends UsageError {
  readonly values: UnresolvedValue[];

  constructor(options: { what: string; values: UnresolvedValue[]; file?: string }) {
    super({
      code: 'CONFIG_VALUE_UNRESOLVED',
      message:
        `${options.what} needs values of ${options.file ?? 'nao_config.yaml'} that are not available: ` +
        `${describeUnresolved(options.values)}.${unresolvedHint(options.values)}`,
    });
    this.values = options.values;
  }
}

/** The unresolved values at or below `prefix` (e.g. every one of `databases[2]`). */
export function unresolvedUnder(values: readonly UnresolvedValue[], prefix: YamlPath): UnresolvedValue[] {
  return values.filter(
    (value) =>
      value.path.length >= prefix.length && prefix.every((part, index) => value.path[index] === part),
  );
}
