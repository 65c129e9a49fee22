import { useCallback, useState } from 'react';
import type { ModuleKey } from '@bo/shared/modules';
import { useLockKeeper } from '@/components/editor/use-lock-keeper';
import { lockFamilies, type FamilyKey } from '../api/lock-families';
import { lockModules, type ModuleLockResult } from '@/lib/module-calls';
import { moduleKey, parseModuleKey, type ModuleKeyString } from '../logic/module-key';

const familyId = (k: FamilyKey) => `${k.macroFamily}|${k.monthId}`;

/**
 * The page's locks on modules (and macro families): taken when they open, and recorded for the
 * modules' access; renewal and release (route change, tab close) are the shared lock keeper's.
 */
export function useModuleLocks() {
  const [locks, setLocks] = useState<Record<ModuleKeyString, ModuleLockResult>>({});

  const record = useCallback((results: ModuleLockResult[]) => {
    modules.hold(results.filter((r) => r.acquired).map(({ moduleName, monthId }) => ({ moduleName, monthId })));
    modules.forget(results.filter((r) => !r.acquired));
    setLocks((old) => ({ ...old, ...Object.fromEntries(results.map((r) => [moduleKey(r), r])) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the lock keeper is stable for the page's life
  }, []);

  const modules = useLockKeeper<ModuleKey>({
    unlockPath: '/module/unlock',
    id: moduleKey,
    renew: (held) => held.length && lockModules(held).then(record),
  });
  const families = useLockKeeper<FamilyKey>({
    unlockPath: '/module/macroFamily/unlock',
    id: familyId,
    renew: (held) => held.length && lockFamilies(held),
  });

  const lock = useCallback(
    async (keys: ModuleKey[]) => {
      if (keys.length === 0) return [];
      const results = await lockModules(keys).catch(() => [] as ModuleLockResult[]);
      record(results);
      return results;
    },
    [record],
  );

  const lockFamily = useCallback(
    async (keys: FamilyKey[]) => {
      if (keys.length === 0) return;
      const results = await lockFamilies(keys).catch(() => []);
      families.hold(results.filter((r) => r.acquired).map(({ macroFamily, monthId }) => ({ macroFamily, monthId })));
    },
    [families],
  );

  /**
   * The page's lock on a module was taken away (forced by `by`, or lapsed: null): it is forgotten without a
   * call and the module turns read-only; its unsaved edits stay on screen (the card's notice says so).
   */
  const lost = useCallback(
    (key: ModuleKeyString, by: string | null) => {
      const item = parseModuleKey(key);
      modules.forget([item]);
      setLocks((old) => ({ ...old, [key]: { ...item, locked: by !== null, acquired: false, userLock: by } }));
    },
    [modules],
  );

  return { locks, lock, lockFamily, record, lost };
}
