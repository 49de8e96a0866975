import { UsageError } from '../errors/index.js';

/** `{{ env('NAME') }}` or `${{ env('NAME') }}`, single or double quotes, any inner spacing. */
const PLACEHOLDER = /\$?\{\{\s*env\(\s*(['"])([A-Za-z_][A-Za-z0-9_]*)\1\s*\)\s*\}\}/g;

/** A config that cannot be read until the variables are set: a usage error (exit code 2), like every config error. */
export class MissingEnvError extends UsageError {
  readonly names: string[];

  constructor(options: { names: string[]; file: string }) {
    const list = options.names.join(', ');
    super({
      code: 'CONFIG_ENV_MISSING',
      message:
        `${options.file} uses environment variable${options.names.length > 1 ? 's' : ''} that ` +
        `${options.names.length > 1 ? 'are' : 'is'} not set: ${list}. ` +
        'Export them (or put them in your CI secrets) and run again.',
    });
    this.names = options.names;
  }
}

export interface TemplatedText {
  /** The text with each placeholder replaced by a token that is a plain YAML scalar. */
  text: string;
  /** token → the variable's value; the loader puts values back after parsing. */
  values: Map<string, string>;
}

/**
 * Replaces env placeholders by opaque tokens before YAML parsing. Substituting the values
 * textually would let a secret containing `#`, `: ` or quotes change the YAML structure (or
 * be cut at a comment); tokens keep the document's shape and line numbers, and the values are
 * put back into the parsed scalars. Every missing variable is reported at once.
 */
export function templateEnv(options: {
  text: string;
  env: Record<string, string | undefined>;
  file: string;
}): TemplatedText {
  const missing = new Set<string>();
  const values = new Map<string, string>();
  let counter = 0;
  const substitute = (code: string) =>
    code.replace(PLACEHOLDER, (_match, _quote: string, name: string) => {
      const value = options.env[name];
      if (value === undefined) {
        missing.add(name);
        return '';
      }
      const token = `__nao_env_${counter++}__`;
      values.set(token, value);
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
  if (missing.size > 0) throw new MissingEnvError({ names: [...missing].sort(), file: options.file });
  return { text, values };
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
