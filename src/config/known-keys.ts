import { didYouMean } from '../errors/index.js';
import {
  DATABASE_TYPES,
  databaseKeys,
  isDatabaseType,
  isOriginalOnlyType,
} from '../warehouse/database-config.js';
import { isMapping } from '../yaml-fields/mapping.js';
import { costsSchema, ORIGINAL_MODEL_KEYS, ORIGINAL_PROVIDER_KEYS } from './llm-providers.js';
import { comparisonSchema, configSchema } from './schema.js';
import { formatYamlPath, type YamlPath } from './yaml-source.js';

/** A mapping's known keys; a value describes the key's own content (null: a leaf, or a block read as a whole). */
type KeyTree = { [key: string]: KeyTree | KeyList | null };
/** A list whose items are mappings of this shape (or, for databases, chosen by `type`; null: not walked). */
class KeyList {
  constructor(readonly items: KeyTree | ((item: Record<string, unknown>) => KeyTree | null)) {}
}
const listOf = (items: KeyList['items']) => new KeyList(items);
const leaves = (keys: readonly string[]): KeyTree => Object.fromEntries(keys.map((key) => [key, null]));

const COSTS: KeyTree = leaves(Object.keys(costsSchema.shape));
const PROVIDER_KEYS: KeyTree = {
  ...leaves(['provider', 'name', 'api_key', 'base_url', ...ORIGINAL_PROVIDER_KEYS]),
  models: listOf({ id: null, costs: COSTS, ...leaves(ORIGINAL_MODEL_KEYS) }),
};
const ALL_DATABASE_KEYS: KeyTree = leaves([...new Set(DATABASE_TYPES.flatMap(databaseKeys))]);

/**
 * The original nao's blocks that `nao test` does not read (context sources, integrations, the
 * chat app's settings): known, so a project written for it loads without warnings.
 */
const ORIGINAL_BLOCKS = [
  'threads',
  'repos',
  'notion',
  'confluence',
  'obsidian',
  'slack',
  'mcp',
  'skills',
  'semantic_layer',
  'tableau',
] as const;

const CONFIG_KEYS: KeyTree = {
  project_name: null,
  ...leaves(ORIGINAL_BLOCKS),
  databases: listOf((item) => {
    if (isDatabaseType(item.type)) return leaves(databaseKeys(item.type));
    // Entries of the original's other types load as placeholders; their keys are its business.
    return isOriginalOnlyType(item.type) ? null : ALL_DATABASE_KEYS;
  }),
  llm: {
    providers: listOf(PROVIDER_KEYS),
    meta: { costs: COSTS },
    annotation_model: null,
    // The single-provider layout of older projects: `llm: {provider, api_key, …}`.
    ...PROVIDER_KEYS,
  },
  test: {
    ...leaves(Object.keys(configSchema.shape.test.unwrap().shape)),
    comparison: leaves(Object.keys(comparisonSchema.shape)),
    stats: leaves(['cluster']),
  },
  agent: leaves(Object.keys(configSchema.shape.agent.unwrap().shape)),
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
  if (!isMapping(value)) return;
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
        if (itemTree !== null) walkMapping(item, itemTree, [...path, key, index], found);
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
