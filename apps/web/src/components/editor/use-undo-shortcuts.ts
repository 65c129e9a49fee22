import { useEffect } from 'react';

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  target: EventTarget | null;
}

/** Text fields keep their own undo, so the editors' shortcuts stay out of them. */
function isTextField(target: EventTarget | null): boolean {
  const el = target as { tagName?: string; isContentEditable?: boolean } | null;
  return !!el && (!!el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName ?? ''));
}

/** Ctrl+Z (⌘Z) undoes, Ctrl+Shift+Z or Ctrl+Y redoes, outside text fields; anything else is not ours. */
export function undoShortcut(press: KeyPress): 'undo' | 'redo' | null {
  if (!(press.ctrlKey || press.metaKey) || isTextField(press.target)) return null;
  const key = press.key.toLowerCase();
  if (key === 'z') return press.shiftKey ? 'redo' : 'undo';
  if (key === 'y') return 'redo';
  return null;
}

/** The editors' undo/redo keys (both editors use this one hook). */
export function useUndoShortcuts(undo: () => void, redo: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = undoShortcut(event);
      if (!action) return;
      event.preventDefault();
      if (action === 'undo') undo();
      else redo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);
}
