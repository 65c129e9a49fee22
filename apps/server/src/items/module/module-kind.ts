import type { ModuleKeyParts } from '@bo/shared/item-keys';
import { findModules, liveModuleVersions, moduleScopes, type ModuleRow } from './modules.repository.js';
import type { ItemKind } from '../lifecycle/item-kind.js';

export const MODULE_TEXTS = {
  notLocked: "Sorry! The module was unlocked by another user, you can't save or publish.",
  submitInProgress: 'The module is being submitted to the planning system and cannot be changed now.',
  reopenRequired: 'The module is submitted: changing it needs the reopen right.',
  releaseClosed: 'The release of this month is closed: its modules are read-only.',
  monthClosed: 'The month is closed: its modules are read-only.',
  notWip: 'Only modules in WIP can be published.',
  noEdit: "You don't have the right to edit this module.",
  noSubmit: "You don't have the right to publish this module.",
} as const;

const toModuleRef = (k: { itemKey: string; monthId: string }): ModuleKeyParts => ({ moduleName: k.itemKey, monthId: k.monthId });

/** A module: keyed by (moduleName, monthId); scope = its brand and its stars zones. */
export const moduleKind: ItemKind<ModuleRow> = {
  type: 'module',
  keyOf: (row) => ({ itemKey: row.moduleName, monthId: row.monthId }),
  findLive: (db, keys, forUpdate) => findModules(db, keys.map(toModuleRef), forUpdate),
  liveVersions: liveModuleVersions,
  scopes: moduleScopes,
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
