import { didYouMean } from '../errors/index.js';
import { formatYamlPath, type YamlPath } from './yaml-source.js';

/** A mapping's known keys; a value describes the key's own content (null: a leaf). */
type KeyTree = { [key: string]: KeyTree | KeyList | null };
/** A list whose items are mappings of this shape (or, for databases, chosen by `type`). */
class KeyList {
  constructor(readonly items: KeyTree | ((item: Record<string, unknown>) => KeyTree)) {}
}
const listOf = (items: KeyList['items']) => new KeyList(items);

const COSTS: KeyTree = {
  input_no_cache: null,
  input_cache_read: null,
  input_cache_write: null,
  output: null,
};
const SERVER_DB = {
  name: null,
  type: null,
  url: null,
  host: null,
  port: null,
  user: null,
  password: null,
  database: null,
};
const DATABASE_KEYS: Record<string, KeyTree> = {
  duckdb: { name: null, type: null, path: null },
  sqlite: { name: null, type: null, path: null },
  postgres: { ...SERVER_DB, schema: null },
  mysql: SERVER_DB,
};
const ALL_DATABASE_KEYS: KeyTree = Object.assign({}, ...Object.values(DATABASE_KEYS));

const CONFIG_KEYS: KeyTree = {
  project_name: null,
  databases: listOf((item) => DATABASE_KEYS[String(item.type)] ?? ALL_DATABASE_KEYS),
  llm: {
    providers: listOf({
      provider: null,
      name: null,
      api_key: null,
      base_url: null,
      models: listOf({ id: null, costs: COSTS }),
    }),
    meta: { costs: COSTS },
  },
  test: {
    models: null,
    threads: null,
    comparison: { rtol: null, atol: null, decimals: null },
    judge_model: null,
    timeout_s: null,
  },
  agent: { max_steps: null, max_result_rows: null, query_timeout_s: null, query_memory_limit: null },
};

export interface UnknownKey {
  path: YamlPath;
  suggestion: string | undefined;
}

/** Keys of nao_config.yaml that nao does not read (typos, mostly), with the nearest known key. */
export function findUnknownKeys(value: unknown): UnknownKey[] {
  const found: UnknownKey[] = [];
  walkMapping(value, CONFIG_KEYS, [], found);
  return found;
}

function walkMapping(value: unknown, tree: KeyTree, path: YamlPath, found: UnknownKey[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const known = Object.keys(tree);
  for (const [key, child] of Object.entries(value)) {
    if (!(key in tree)) {
      found.push({ path: [...path, key], suggestion: didYouMean(key, known) ?? undefined });
      continue;
    }
    const shape = tree[key];
    if (shape === null || shape === undefined) continue;
    if (shape instanceof KeyList) {
      if (!Array.isArray(child)) continue;
      child.forEach((item, index) => {
        if (item === null || typeof item !== 'object') return;
        const itemTree =
          typeof shape.items === 'function' ? shape.items(item as Record<string, unknown>) : shape.items;
        walkMapping(item, itemTree, [...path, key, index], found);
      });
    } else {
      walkMapping(child, shape, [...path, key], found);
    }
  }
}

export function formatUnknownKey(unknown: UnknownKey, line: number | null): string {
  const where = line === null ? '' : ` (line ${line})`;
  const hint = unknown.suggestion ? ` — did you mean \`${unknown.suggestion}\`?` : '';
  return `unknown key \`${formatYamlPath(unknown.path)}\`${where} is ignored${hint}`;
}
