import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModuleKey } from '@bo/shared/modules';
import { lockFamilies, unlockFamilies, type FamilyKey } from '../api/lock-families';
import { lockModules, unlockModules, unlockOnPageExit, type ModuleLockResult } from '../api/lock-modules';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';

/** Renewal well inside LOCK_TTL_MINUTES (120): a lock lapses only when the page is gone. */
export const LOCK_RENEW_MS = 5 * 60_000;

/**
 * The page's locks: taken when modules (and macro families) open, renewed while the page is open,
 * released when the page unmounts (route change) and, with a keepalive fetch, when the tab closes.
 */
export function useModuleLocks() {
  const [locks, setLocks] = useState<Record<ModuleKeyString, ModuleLockResult>>({});
  const held = useRef(new Map<ModuleKeyString, ModuleKey>());
  const families = useRef(new Map<string, FamilyKey>());

  const record = useCallback((results: ModuleLockResult[]) => {
    for (const r of results) {
      const key = moduleKey(r);
      if (r.acquired) held.current.set(key, { moduleName: r.moduleName, monthId: r.monthId });
      else held.current.delete(key);
    }
    setLocks((old) => ({ ...old, ...Object.fromEntries(results.map((r) => [moduleKey(r), r])) }));
  }, []);

  const lock = useCallback(
    async (keys: ModuleKey[]) => {
      if (keys.length === 0) return [];
      const results = await lockModules(keys).catch(() => [] as ModuleLockResult[]);
      record(results);
      return results;
    },
    [record],
  );

  const lockFamily = useCallback(async (keys: FamilyKey[]) => {
    if (keys.length === 0) return;
    const results = await lockFamilies(keys).catch(() => []);
    for (const r of results) if (r.acquired) families.current.set(`${r.macroFamily}|${r.monthId}`, { macroFamily: r.macroFamily, monthId: r.monthId });
  }, []);

  useEffect(() => {
    const renew = setInterval(() => {
      const keys = [...held.current.values()];
      if (keys.length) void lockModules(keys).then(record).catch(() => undefined);
      const fams = [...families.current.values()];
      if (fams.length) void lockFamilies(fams).catch(() => undefined);
    }, LOCK_RENEW_MS);
    const onExit = () => {
      unlockOnPageExit('/module/unlock', [...held.current.values()]);
      unlockOnPageExit('/module/macroFamily/unlock', [...families.current.values()]);
    };
    window.addEventListener('pagehide', onExit);
    return () => {
      clearInterval(renew);
      window.removeEventListener('pagehide', onExit);
      const keys = [...held.current.values()];
      const fams = [...families.current.values()];
      if (keys.length) void unlockModules(keys).catch(() => undefined);
      if (fams.length) void unlockFamilies(fams).catch(() => undefined);
      held.current.clear();
      families.current.clear();
    };
  }, [record]);

  return { locks, lock, lockFamily, record };
}
