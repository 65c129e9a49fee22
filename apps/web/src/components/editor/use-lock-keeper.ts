import { useEffect, useMemo, useRef } from 'react';
import { api } from '@/lib/api-client';
import { onLogout } from '@/lib/session';
import { unlockOnPageExit } from './unlock-on-exit';

/** Renewal well inside LOCK_TTL_MINUTES (120): a lock lapses only when the page is gone. */
const LOCK_RENEW_MS = 5 * 60_000;

interface LockKind<K extends object> {
  /** POST path that releases the caller's own locks, e.g. '/cluster/unlock'. */
  unlockPath: string;
  /** Stable identity of a key (locks are kept by it). */
  id: (key: K) => string;
  /** Called every LOCK_RENEW_MS with the locks held: takes them again (and records the answer). */
  renew: (held: K[]) => unknown;
}

interface LockKeeper<K extends object> {
  /** Locks acquired (added to those held). */
  hold: (keys: readonly K[]) => void;
  /** Locks not (or no longer) held, forgotten without a call. */
  forget: (keys: readonly K[]) => void;
  /** Releases every held lock now (the page switches to other items). */
  releaseAll: () => void;
  held: () => K[];
}

/**
 * The editors' locks (module page, cluster page): the editor takes them and tells the keeper which it
 * holds; the keeper renews them while the page is open, releases them when the page unmounts (route
 * change) and, with a keepalive fetch, when the tab closes or the session ends (logout from the menu or
 * at the token's expiry: released while the token is still there; the server's logout releases them
 * too). One keeper per kind of lock.
 */
export function useLockKeeper<K extends object>(kind: LockKind<K>): LockKeeper<K> {
  const held = useRef(new Map<string, K>());
  const kindRef = useRef(kind);
  kindRef.current = kind;

  const keeper = useMemo<LockKeeper<K>>(
    () => ({
      hold: (keys) => {
        for (const k of keys) held.current.set(kindRef.current.id(k), k);
      },
      forget: (keys) => {
        for (const k of keys) held.current.delete(kindRef.current.id(k));
      },
      releaseAll: () => {
        const keys = [...held.current.values()];
        held.current.clear();
        if (keys.length) void api.post(kindRef.current.unlockPath, keys, { alertOnError: false }).catch(() => undefined);
      },
      held: () => [...held.current.values()],
    }),
    [],
  );

  useEffect(() => {
    const renew = setInterval(() => {
      try {
        void Promise.resolve(kindRef.current.renew([...held.current.values()])).catch(() => undefined);
      } catch {
        // a failed renewal is retried at the next tick
      }
    }, LOCK_RENEW_MS);
    const onExit = () => unlockOnPageExit(kindRef.current.unlockPath, [...held.current.values()]);
    window.addEventListener('pagehide', onExit);
    const stopOnLogout = onLogout(() => {
      onExit();
      // Released: the unmount that follows the logout has nothing left to send (and no token to send it with).
      held.current.clear();
    });
    return () => {
      clearInterval(renew);
      window.removeEventListener('pagehide', onExit);
      stopOnLogout();
      keeper.releaseAll();
    };
  }, [keeper]);

  return keeper;
}
