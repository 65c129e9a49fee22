import { parseModuleKey } from './module-key';
import type { ModuleKey } from '@bo/shared/modules';

/**
 * How the module page is opened (docs/working-area.md):
 * - `?moduleName=NAME&monthId=M01_2027` — one module (new tab from home, pending area, cluster page);
 * - `?modules=NAME1|M01_2027,NAME2|M01_2027` — several modules chosen on home;
 * - `?macroFamily=FAMILY&monthId=M01_2027[&brand=AUR][&collection=SUN]` — the modules of a macro family.
 */
export type PageRequest =
  | { kind: 'modules'; keys: ModuleKey[] }
  | { kind: 'family'; macroFamily: string; monthId: string; brand?: string; collection?: string }
  | { kind: 'none' };

export function readPageRequest(params: URLSearchParams): PageRequest {
  const moduleName = params.get('moduleName');
  const monthId = params.get('monthId');
  const list = params.get('modules');
  const macroFamily = params.get('macroFamily');
  const keys: ModuleKey[] = [];
  if (list) {
    for (const part of list.split(',')) {
      if (!part.includes('|')) continue;
      const { moduleName: name, monthId: month } = parseModuleKey(part);
      if (name.trim() && month.trim()) keys.push({ moduleName: name.trim(), monthId: month.trim() });
    }
  }
  if (moduleName && monthId) keys.unshift({ moduleName, monthId });
  if (keys.length) return { kind: 'modules', keys };
  if (macroFamily && monthId) {
    const brand = params.get('brand') ?? undefined;
    const collection = params.get('collection') ?? undefined;
    return { kind: 'family', macroFamily, monthId, ...(brand ? { brand } : {}), ...(collection ? { collection } : {}) };
  }
  return { kind: 'none' };
}

/** The URL of one module's page (copy "open it there", new tabs). */
export const modulePageUrl = (k: ModuleKey) =>
  `/backoffice/module?moduleName=${encodeURIComponent(k.moduleName)}&monthId=${encodeURIComponent(k.monthId)}`;
