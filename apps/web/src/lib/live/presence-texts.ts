import type { LiveItemKind, PresenceViewer } from '@bo/shared/live-events';

const pad = (n: number) => String(n).padStart(2, '0');

/** '10:32' today, '14/11/2026 10:32' another day (Italian, like every date of the product). */
export function formatSince(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const today = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return today ? time : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${time}`;
}

/** The product's texts for presence, live lists and locks that follow people (docs/web-app.md "Live"). */
export const LIVE_TEXTS = {
  mode: (v: PresenceViewer) => (v.mode === 'editing' ? 'editing' : 'viewing'),
  person: (v: PresenceViewer) => `${v.displayName} (${v.mode === 'editing' ? 'editing' : 'viewing'})`,
  /** The list badge's accessible name: 'Open by Anna Rossi (editing) and Marco Bianchi (viewing)'. */
  openBy: (people: readonly PresenceViewer[]) => `Open by ${joinNames(people.map((v) => LIVE_TEXTS.person(v)))}`,
  listTitle: (kind: LiveItemKind) => `Also open by (this ${kind})`,
  since: (v: PresenceViewer, now?: Date) => `since ${formatSince(v.since, now)}`,
  arrived: (v: PresenceViewer, what: string) => `${v.displayName} opened ${what} (${v.mode === 'editing' ? 'editing' : 'viewing'})`,
  left: (v: PresenceViewer, what: string) => `${v.displayName} closed ${what}`,
  switched: (v: PresenceViewer, what: string) => (v.mode === 'editing' ? `${v.displayName} is now editing ${what}` : `${v.displayName} is now only viewing ${what}`),
  released: (who: string | null, kind: LiveItemKind) => `${who ?? 'The other user'} released the ${kind}.`,
  editNow: 'Edit it now',
  /** Taking the lock back after it was lost, keeping the unsaved edits on screen. */
  editAgain: 'Take the lock and keep my changes',
  outdated: (kind: LiveItemKind, who: string | null, when: string) =>
    `A newer version of this ${kind} was saved${who ? ` by ${who}` : ''} at ${when}. What you see is out of date.`,
  reload: 'Reload',
  reloadQuestion: (kind: LiveItemKind) => `Reload the ${kind}? Your unsaved changes to it will be lost.`,
  lockForced: (kind: LiveItemKind, by: string | null) => `${by ?? 'Another user'} unlocked this ${kind}: you can no longer save it.`,
  lockLapsed: (kind: LiveItemKind) => `Your lock on this ${kind} lapsed: you can no longer save it.`,
  lockLostEdits: 'Your unsaved changes are still on screen, read only. Take the lock back to save them when it is free, or Reload to see the saved version (your changes are then dropped).',
  lockLostNoEdits: 'You had no unsaved changes.',
  lockLostTitle: (kind: LiveItemKind) => `You lost the lock on the ${kind}`,
} as const;

/** 'A', 'A and B', 'A, B and C'. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
