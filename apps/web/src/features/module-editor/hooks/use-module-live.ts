import { useCallback, useMemo, useRef } from 'react';
import type { Grant } from '@bo/shared/grants';
import type { ModuleKey } from '@bo/shared/modules';
import type { WorkingModule } from '@bo/shared/working-area';
import type { TrackedItem } from '@/components/editor/live-item-notices';
import { useLiveItemNotices } from '@/components/editor/use-live-item-notices';
import { useReportOpenItems } from '@/components/live/use-live';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { LIVE_TEXTS } from '@/lib/live/presence-texts';
import type { ModuleLockResult } from '@/lib/module-calls';
import { moduleAccess, type ModuleAccess } from '../logic/module-access';
import { moduleKey, parseModuleKey, type ModuleKeyString } from '../logic/module-key';
import { hasChanges, type EditorModule } from './editor-reducer';

/**
 * The module page's live side (issue 36): it reports what it has open (editing what it holds the lock of, which
 * also renews the lock's lease, viewing the rest), and turns the stream's news about its modules into the cards'
 * notices: a lock lost (the card turns read-only, its edits stay), the other user's release ('Edit it now'), a
 * newer saved version (Reload, which asks first when the card has unsaved edits).
 */
export function useModuleLive({
  modules,
  locks,
  access,
  grants,
  username,
  lock,
  reload,
  lost,
}: {
  modules: readonly EditorModule[];
  locks: Readonly<Record<ModuleKeyString, ModuleLockResult>>;
  access: Readonly<Record<ModuleKeyString, ModuleAccess>>;
  grants: readonly Grant[];
  username: string;
  lock: (keys: ModuleKey[]) => Promise<ModuleLockResult[]>;
  reload: (keys: ModuleKey[]) => Promise<WorkingModule[]>;
  lost: (key: ModuleKeyString, by: string | null) => void;
}) {
  const rows = modules.map((m) => {
    const key = moduleKey(m.dto);
    return { key, holds: !!locks[key]?.acquired, lockedBy: access[key]?.lockedBy ?? null, version: m.dto.version };
  });
  const signature = JSON.stringify(rows);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `signature` stands for the rows (an edit of a card changes nothing here)
  const tracked: TrackedItem[] = useMemo(() => rows, [signature]);

  const open = useMemo(
    () => tracked.map((t) => ({ kind: 'module' as const, name: parseModuleKey(t.key).moduleName, monthId: parseModuleKey(t.key).monthId, mode: t.holds ? ('editing' as const) : ('viewing' as const) })),
    [tracked],
  );
  useReportOpenItems(open);

  const byKey = useRef(new Map<string, EditorModule>());
  byKey.current = new Map(modules.map((m) => [moduleKey(m.dto), m]));
  const describe = useCallback((key: string) => {
    const m = byKey.current.get(key);
    return m ? `${m.dto.moduleLabel} (${m.dto.moduleName})` : key;
  }, []);

  const { notices, dismiss } = useLiveItemNotices({
    kind: 'module',
    items: tracked,
    keyOf: (name, monthId) => moduleKey({ moduleName: name, monthId }),
    onLockLost: lost,
    describe,
  });

  /** Whether the user could edit the module if its lock were free (so 'Edit it now' is offered only to them). */
  const mayEdit = useCallback(
    (key: ModuleKeyString) => {
      const m = byKey.current.get(key);
      return !!m && !moduleAccess(grants, username, { ...m.dto, userLock: null }, { acquired: true, userLock: null }, false).readOnly;
    },
    [grants, username],
  );

  /** 'Edit it now': takes the lock; a card without unsaved edits is read again (the saved version), one with edits keeps them. */
  const editNow = useCallback(
    async (key: ModuleKeyString) => {
      const item = parseModuleKey(key);
      const [result] = await lock([item]);
      if (!result?.acquired) {
        flash(result?.userLock ? `${result.userLock} took the module first` : 'The module could not be locked', 'warning');
        return;
      }
      dismiss(key, 'released');
      const m = byKey.current.get(key);
      if (!m || !hasChanges(m)) await reload([item]);
    },
    [lock, reload, dismiss],
  );

  /** Reload: the saved module; with unsaved edits on the card, only after the user says so. */
  const reloadOne = useCallback(
    async (key: ModuleKeyString) => {
      const m = byKey.current.get(key);
      if (m && hasChanges(m)) {
        const yes = await confirmDialog({ title: 'Reload the module', message: LIVE_TEXTS.reloadQuestion('module'), confirmLabel: 'Reload', cancelLabel: 'Keep my changes', confirmColor: 'red' });
        if (!yes) return;
      }
      await reload([parseModuleKey(key)]);
    },
    [reload],
  );

  return { notices, mayEdit, editNow, reload: reloadOne };
}
