import type { ModuleKeyParts } from '@bo/shared/item-keys';
import { MODULE_TEXTS } from '@bo/shared/modules';
import { findModules, findModulesGated, liveModuleVersions, moduleScopes, moduleZonesArray, type ModuleRow } from './modules.repository.js';
import { splitGated } from '../lifecycle/item-gate.repository.js';
import type { ItemKind } from '../lifecycle/item-kind.js';

const toModuleRef = (k: { itemKey: string; monthId: string }): ModuleKeyParts => ({ moduleName: k.itemKey, monthId: k.monthId });

/** A module: keyed by (moduleName, monthId); scope = its brand and its stars zones. */
export const moduleKind: ItemKind<ModuleRow> = {
  type: 'module',
  keyOf: (row) => ({ itemKey: row.moduleName, monthId: row.monthId }),
  findLive: (db, keys, forUpdate) => findModules(db, keys.map(toModuleRef), forUpdate),
  liveVersions: liveModuleVersions,
  scopes: moduleScopes,
  zonesOf: moduleZonesArray,
  findLiveGated: async (db, keys, ttlMinutes) => splitGated(moduleKind, await findModulesGated(db, keys.map(toModuleRef), ttlMinutes), keys),
  texts: {
    submitInProgress: MODULE_TEXTS.submitInProgress,
    monthClosed: MODULE_TEXTS.monthClosed,
    releaseClosed: MODULE_TEXTS.releaseClosed,
    notLocked: MODULE_TEXTS.notLocked,
    notLockedKey: 'moduleNotLocked',
    mayNotUnlock: (keys) => `You may not unlock the module(s) ${keys.join(', ')}`,
    monthsNotFound: (name) => `Failed to fetch months for module ${name}`,
    mayNotView: (name) => `You may not see the module ${name}`,
  },
};
