/** A module on the page is keyed by name and month: 'AUR_SUN_PILOT_01|M01_2027'. */
export type ModuleKeyString = string;

export const moduleKey = (m: { moduleName: string; monthId: string }): ModuleKeyString => `${m.moduleName}|${m.monthId}`;

export function parseModuleKey(key: ModuleKeyString): { moduleName: string; monthId: string } {
  const [moduleName = '', monthId = ''] = key.split('|');
  return { moduleName, monthId };
}
