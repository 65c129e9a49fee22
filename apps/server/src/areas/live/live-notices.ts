/**
 * The notifications of the live channel (migration 0016) read into one batch. Each payload is one of
 * `{"i": [[kind, name, month], …]}` item-months changed, `{"p": […]}` presence changed on item-months,
 * `{"s": [[month, brand], …]}` many items of scopes changed, `{"l": [[kind, name, month, owner, reason, by], …]}`
 * locks lost by their holders, `{"j": [id, owner]}` a job ended. Anything else is ignored (logged by the caller).
 */
import { z } from 'zod';
import { liveItemKind } from '@bo/shared/live-events';
import type { ItemRef } from './live.repository.js';

const ref = z.tuple([liveItemKind, z.string(), z.string()]);
const notice = z.union([
  z.object({ i: z.array(ref) }),
  z.object({ p: z.array(ref) }),
  z.object({ s: z.array(z.tuple([z.string(), z.string()])) }),
  z.object({ l: z.array(z.tuple([liveItemKind, z.string(), z.string(), z.string(), z.enum(['forced', 'lapsed']), z.string().nullable()])) }),
  z.object({ j: z.tuple([z.number(), z.string()]) }),
]);

interface LockLoss extends ItemRef {
  owner: string;
  reason: 'forced' | 'lapsed';
  by: string | null;
}

/** What a batch of notifications asks for, each thing once. */
export class NoticeBatch {
  readonly items = new Map<string, ItemRef>();
  readonly presence = new Map<string, ItemRef>();
  readonly scopes = new Map<string, { monthId: string; brand: string }>();
  readonly lockLosses: LockLoss[] = [];
  readonly jobIds = new Set<number>();
  /** When the first notification of the batch arrived (performance.now()): the lag is measured from it. */
  readonly since = performance.now();
  size = 0;

  /** Adds one payload; false when it is not a notification of the live channel. */
  add(payload: string): boolean {
    let parsed: z.infer<typeof notice>;
    try {
      const result = notice.safeParse(JSON.parse(payload));
      if (!result.success) return false;
      parsed = result.data;
    } catch {
      return false;
    }
    this.size += 1;
    const toRef = ([kind, name, monthId]: z.infer<typeof ref>): ItemRef => ({ kind, name, monthId });
    if ('i' in parsed) for (const r of parsed.i) this.items.set(refKey(toRef(r)), toRef(r));
    else if ('p' in parsed) for (const r of parsed.p) this.presence.set(refKey(toRef(r)), toRef(r));
    else if ('s' in parsed) for (const [monthId, brand] of parsed.s) this.scopes.set(`${monthId}|${brand}`, { monthId, brand });
    else if ('l' in parsed) for (const [kind, name, monthId, owner, reason, by] of parsed.l) this.lockLosses.push({ kind, name, monthId, owner, reason, by });
    else this.jobIds.add(parsed.j[0]);
    return true;
  }

  /** Every item-month the batch needs the state of (changed, lost, presence changed). */
  refs(): ItemRef[] {
    const all = new Map([...this.items, ...this.presence]);
    for (const l of this.lockLosses) all.set(refKey(l), { kind: l.kind, name: l.name, monthId: l.monthId });
    return [...all.values()];
  }
}

export const refKey = (r: ItemRef) => `${r.kind}|${r.monthId}|${r.name}`;
