import {
  type Document,
  isCollection,
  isMap,
  isScalar,
  LineCounter,
  parseAllDocuments,
  visit,
  type YAMLError,
} from 'yaml';
import { restoreEnv, takeUnresolved } from './env-template.js';
import type { SecretRef, UnresolvedValue } from './secret-refs.js';

export type YamlPath = ReadonlyArray<string | number>;

/** Where a YAML problem stands: 1-based line and column, or null when the parser gave none. */
export interface YamlIssue {
  /** `documents`: the file holds several documents (the position is the second one's). */
  kind: 'syntax' | 'documents';
  message: string;
  position: { line: number; column: number } | null;
}

/**
 * A parsed YAML file (nao_config.yaml or a test file) that can still say on which line a
 * value stands. Both readers word their own messages from the issues.
 */
export interface YamlSource {
  /** The one document's value; undefined when `errors` is not empty or the file is empty. */
  value: unknown;
  /** Syntax errors, a second document, an alias bomb: the file cannot be used. */
  errors: YamlIssue[];
  /** What YAML tolerates but flags (an unresolved tag). */
  warnings: YamlIssue[];
  /** True when the file holds no content at all (only comments, or nothing). */
  empty: boolean;
  /** 1-based line of the node at `path`, or of its nearest existing parent. */
  lineOf(path: YamlPath): number | null;
  /** Values that held placeholders with no known value; each reads as `""` in `value`. */
  unresolved: UnresolvedValue[];
}

/** Anchors and aliases past this count are refused: a small file must not expand to gigabytes. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text with duplicate keys refused and positions kept. With `envValues`, the env
 * values that templating put in are restored into the scalars that held their tokens; with
 * `unresolved`, the placeholders without a value are taken out and listed by path.
 */
export function parseYamlSource(options: {
  text: string;
  envValues?: Map<string, string>;
  unresolved?: Map<string, SecretRef>;
}): YamlSource {
  const lineCounter = new LineCounter();
  const position = (offset: number | undefined) => {
    if (offset === undefined) return null;
    const { line, col } = lineCounter.linePos(offset);
    return line === 0 ? null : { line, column: col };
  };
  const documents: Document.Parsed[] = Array.from(
    parseAllDocuments(options.text, {
      lineCounter,
      prettyErrors: false,
      uniqueKeys: true,
      logLevel: 'error',
    }),
  );
  const issue = (problem: YAMLError): YamlIssue => ({
    kind: 'syntax',
    message: problem.message.split('\n')[0]!,
    position: position(problem.pos[0]),
  });
  const errors = documents.flatMap((document) => document.errors.map(issue));
  const warnings = documents.flatMap((document) => document.warnings.map(issue));
  // A stray `---` at the end makes an empty second document; only documents with content count.
  const filled = documents.filter(
    (document) =>
      document.contents !== null && !(isScalar(document.contents) && document.contents.value === null),
  );
  if (errors.length === 0 && filled.length > 1) {
    errors.push({
      kind: 'documents',
      message: `holds ${filled.length} YAML documents`,
      position: position(filled[1]!.range[0]),
    });
  }
  const document = filled[0];
  const source = {
    value: undefined as unknown,
    errors,
    warnings,
    empty: errors.length === 0 && document === undefined,
    lineOf: (path: YamlPath) => (document === undefined ? null : lineOfPath(document, lineCounter, path)),
    unresolved: [] as UnresolvedValue[],
  };
  if (errors.length > 0 || document === undefined) return source;
  const envValues = options.envValues ?? new Map<string, string>();
  if (envValues.size > 0) restoreEnvValues(document, envValues);
  try {
    source.value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    if (options.unresolved !== undefined && options.unresolved.size > 0) {
      source.value = takeUnresolvedValues(source.value, [], options.unresolved, source.unresolved);
    }
  } catch (error) {
    errors.push({ kind: 'syntax', message: (error as Error).message, position: null });
  }
  return source;
}

function restoreEnvValues(document: Document, envValues: Map<string, string>): void {
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const restored = restoreEnv(node.value, envValues);
      // A plain scalar that was only a placeholder takes the type its value spells
      // (`port: {{ env('PGPORT') }}` is a number); quoted ones stay strings.
      node.value =
        restored.whole && node.type === 'PLAIN' ? plainScalarValue(restored.value) : restored.value;
    },
  });
}

/** Reads every unresolved placeholder as `""`, noting the path of each value that held one. */
function takeUnresolvedValues(
  value: unknown,
  path: Array<string | number>,
  unresolved: Map<string, SecretRef>,
  found: UnresolvedValue[],
): unknown {
  if (typeof value === 'string') {
    const taken = takeUnresolved(value, unresolved);
    if (taken.refs.length > 0) found.push({ path: [...path], refs: taken.refs });
    return taken.value;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => takeUnresolvedValues(item, [...path, index], unresolved, found));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = takeUnresolvedValues(child, [...path, key], unresolved, found);
    }
    return out;
  }
  return value;
}

function plainScalarValue(text: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/** The line of a mapping entry is the line of its key (a nested mapping starts a line lower). */
function lineOfPath(doc: Document, lineCounter: LineCounter, path: YamlPath): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const parent = depth <= 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1), true);
    const last = path[depth - 1];
    if (depth > 0 && isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === last);
      if (pair && isScalar(pair.key) && pair.key.range) return lineCounter.linePos(pair.key.range[0]).line;
      continue;
    }
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if ((isScalar(node) || isCollection(node)) && node.range) {
      return lineCounter.linePos(node.range[0]).line;
    }
  }
  return null;
}

/** `databases[1].type` — the form every nao error uses to point into a YAML file. */
export function formatYamlPath(path: YamlPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}
