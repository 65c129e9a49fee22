import { describe, expect, it } from 'vitest';
import { undoShortcut } from './use-undo-shortcuts';

const press = (key: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}, target: object | null = { tagName: 'DIV' }) => ({
  key,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  target: target as EventTarget | null,
});

describe('undo shortcuts', () => {
  it('reads Ctrl+Z as undo, Ctrl+Shift+Z and Ctrl+Y as redo, ⌘ like Ctrl', () => {
    expect(undoShortcut(press('z', { ctrl: true }))).toBe('undo');
    expect(undoShortcut(press('Z', { ctrl: true, shift: true }))).toBe('redo');
    expect(undoShortcut(press('y', { ctrl: true }))).toBe('redo');
    expect(undoShortcut(press('z', { meta: true }))).toBe('undo');
  });

  it('ignores other keys, keys without Ctrl and text fields', () => {
    expect(undoShortcut(press('z'))).toBeNull();
    expect(undoShortcut(press('s', { ctrl: true }))).toBeNull();
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT']) expect(undoShortcut(press('z', { ctrl: true }, { tagName }))).toBeNull();
    expect(undoShortcut(press('z', { ctrl: true }, { tagName: 'DIV', isContentEditable: true }))).toBeNull();
  });
});
