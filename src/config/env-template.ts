import type { SecretRef } from './secret-refs.js';
import type { SecretResolver } from './secret-stores.js';

/**
 * `{{ env('NAME') }}`, `{{ aws('secret/field') }}` or `{{ k8s('ns/secret/field') }}`, with an
 * optional leading `$`, single or double quotes and any inner spacing: the placeholders the
 * original nao reads.
 */
const PLACEHOLDER = /\$?\{\{\s*(env|aws|k8s)\(\s*(['"])([^'"]+)\2\s*\)\s*\}\}/g;

const TOKEN = /__nao_(?:env|ref)_\d+__/g;

export interface TemplatedText {
  /** The text with each placeholder replaced by a token that is a plain YAML scalar. */
  text: string;
  /** token → the variable's value; the loader puts values back after parsing. */
  values: Map<string, string>;
  /** token → the placeholder whose value is not known (an unset variable, a secret-store reference). */
  unresolved: Map<string, SecretRef>;
}

/**
 * Replaces placeholders by opaque tokens before YAML parsing. Substituting the values
 * textually would let a secret containing `#`, `: ` or quotes change the YAML structure (or
 * be cut at a comment); tokens keep the document's shape and line numbers, and the values are
 * put back into the parsed scalars. A variable that is not set (or is empty, as the original
 * nao counts it) reads as `""` and is reported only where its value is needed, so a project
 * loads without the secrets of the parts a command does not use.
 */
export function templateEnv(options: {
  text: string;
  env: Record<string, string | undefined>;
  /** Reads `{{ aws(...) }}` / `{{ k8s(...) }}` references; without it they stay unresolved. */
  resolveSecret?: SecretResolver;
}): TemplatedText {
  const values = new Map<string, string>();
  const unresolved = new Map<string, SecretRef>();
  let counter = 0;
  const substitute = (code: string) =>
    code.replace(PLACEHOLDER, (_match, kind: 'env' | 'aws' | 'k8s', _quote: string, id: string) => {
      const known = (value: string) => {
        const token = `__nao_env_${counter++}__`;
        values.set(token, value);
        return token;
      };
      let ref: SecretRef;
      if (kind === 'env') {
        const value = options.env[id];
        if (value !== undefined && value !== '') return known(value);
        ref = { kind, name: id };
      } else {
        const lookup = options.resolveSecret?.(kind, id);
        if (lookup !== undefined && 'value' in lookup) return known(lookup.value);
        ref = lookup === undefined ? { kind, id } : { kind, id, reason: lookup.reason };
      }
      const token = `__nao_ref_${counter++}__`;
      unresolved.set(token, ref);
      return token;
    });
  // Placeholders in comments are documentation (`# password: {{ env('PGPASSWORD') }}`), not uses.
  const text = options.text
    .split('\n')
    .map((line) => {
      const comment = commentStart(line);
      return comment === -1 ? substitute(line) : substitute(line.slice(0, comment)) + line.slice(comment);
    })
    .join('\n');
  return { text, values, unresolved };
}

/** Index of the `#` that starts a YAML comment on this line (outside quotes), or -1. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
      return i;
    }
  }
  return -1;
}

/** Puts env values back into a parsed string; `whole` tells whether the scalar was only the token. */
export function restoreEnv(value: string, values: Map<string, string>): { value: string; whole: boolean } {
  if (values.size === 0 || !value.includes('__nao_env_')) return { value, whole: false };
  const exact = values.get(value);
  if (exact !== undefined) return { value: exact, whole: true };
  return {
    value: value.replace(/__nao_env_\d+__/g, (token) => values.get(token) ?? token),
    whole: false,
  };
}

/** The unresolved placeholders of a parsed string, and the string with each read as `""`. */
export function takeUnresolved(
  value: string,
  unresolved: Map<string, SecretRef>,
): { value: string; refs: SecretRef[] } {
  if (unresolved.size === 0 || !value.includes('__nao_ref_')) return { value, refs: [] };
  const refs: SecretRef[] = [];
  const rest = value.replace(TOKEN, (token) => {
    const ref = unresolved.get(token);
    if (ref === undefined) return token;
    refs.push(ref);
    return '';
  });
  return { value: rest, refs };
}
