import { VisuallyHidden } from '@mantine/core';
import { createStore, useStore } from '@/lib/store';

/** The last polite announcement; a counter makes a repeated sentence a new text (screen readers skip an unchanged one). */
const announcement = createStore<{ text: string; n: number }>({ text: '', n: 0 });

/** Says a sentence politely to screen readers (who arrived, who left, a released lock): one live region for the whole app. */
export function announce(text: string): void {
  announcement.set((a) => ({ text, n: a.n + 1 }));
}

/** The app's one polite live region for live changes (mounted once, in the signed-in frame). */
export function LiveAnnouncer() {
  const { text, n } = useStore(announcement, (a) => a);
  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="live-announcer">
      <span key={n}>{text}</span>
    </VisuallyHidden>
  );
}
