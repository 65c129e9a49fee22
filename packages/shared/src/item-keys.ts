/**
 * The composite key of an item in a month, as one string: `${name}|${monthId}`. Maps and sets keyed by
 * item use it on the server and in the browser; it is written here once so both sides agree. A month id
 * (`M03_2027`) never holds a `|`, so splitting at the last one is exact whatever the name holds.
 */
export interface ModuleKeyParts {
  moduleName: string;
  monthId: string;
}
interface ClusterKeyParts {
  clusterId: string;
  monthId: string;
}
/** The kind-free form the lock table and the lifecycle core use: itemKey = moduleName or clusterId. */
export interface ItemKeyParts {
  itemKey: string;
  monthId: string;
}

const SEPARATOR = '|';

export const itemKeyString = (k: ItemKeyParts): string => `${k.itemKey}${SEPARATOR}${k.monthId}`;
export const moduleKeyString = (m: ModuleKeyParts): string => itemKeyString({ itemKey: m.moduleName, monthId: m.monthId });
export const clusterKeyString = (c: ClusterKeyParts): string => itemKeyString({ itemKey: c.clusterId, monthId: c.monthId });

/** The inverse of itemKeyString; the month is what follows the last separator. */
function parseItemKey(value: string): ItemKeyParts {
  const at = value.lastIndexOf(SEPARATOR);
  if (at < 0) throw new Error(`Not an item key: ${value}`);
  return { itemKey: value.slice(0, at), monthId: value.slice(at + 1) };
}
export const parseModuleKey = (value: string): ModuleKeyParts => {
  const { itemKey, monthId } = parseItemKey(value);
  return { moduleName: itemKey, monthId };
};
export const parseClusterKey = (value: string): ClusterKeyParts => {
  const { itemKey, monthId } = parseItemKey(value);
  return { clusterId: itemKey, monthId };
};

/** Keys once each (compared by `keyString`), in the order given. */
export function uniqueKeys<K>(keys: readonly K[], keyString: (k: K) => string): K[] {
  const seen = new Set<string>();
  const out: K[] = [];
  for (const k of keys) {
    const s = keyString(k);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(k);
  }
  return out;
}
