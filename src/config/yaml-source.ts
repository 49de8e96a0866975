import { type Document, isCollection, isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { restoreEnv } from './env-template.js';

export type YamlPath = ReadonlyArray<string | number>;

/** A parsed YAML file that can still say on which line a value stands. */
export interface YamlSource {
  value: unknown;
  /** 1-based line of the node at `path`, or of its nearest existing parent. */
  lineOf(path: YamlPath): number | null;
  /** Syntax errors as `message (line N)`; empty when the file parsed. */
  syntaxErrors: string[];
}

/** Parses YAML text, putting env values back into the scalars that held their tokens. */
export function parseYamlSource(options: { text: string; envValues?: Map<string, string> }): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(options.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntaxErrors = doc.errors.map((error) => {
    const line = lineCounter.linePos(error.pos[0]).line;
    return line === 0 ? error.message.split('\n')[0]! : `${error.message.split('\n')[0]} (line ${line})`;
  });
  const envValues = options.envValues ?? new Map<string, string>();
  if (envValues.size > 0) {
    visit(doc, {
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
  return {
    value: syntaxErrors.length > 0 ? undefined : doc.toJS(),
    syntaxErrors,
    lineOf: (path) => lineOfPath(doc, lineCounter, path),
  };
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
