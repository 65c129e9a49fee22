import { moduleKeyString, parseModuleKey as parseKey } from '@bo/shared/item-keys';

/** A module on the page is keyed by name and month: 'AUR_SUN_PILOT_01|M01_2027' (@bo/shared/item-keys). */
export type ModuleKeyString = string;

export const moduleKey: (m: { moduleName: string; monthId: string }) => ModuleKeyString = moduleKeyString;

export const parseModuleKey: (key: ModuleKeyString) => { moduleName: string; monthId: string } = parseKey;
