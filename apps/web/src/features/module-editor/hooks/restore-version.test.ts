import { describe, expect, it } from 'vitest';
import { el, mh, workingModule } from '../test/builders';
import { editorReducer, hasChanges, initialEditorState, type EditorState } from './editor-reducer';

const A = 'A|M01_2027';
const dtoA = workingModule('A', [mh('1'), el('2')]);
const loaded = (): EditorState => editorReducer(initialEditorState, { type: 'loaded', dtos: [dtoA], replace: true });
const restore = { type: 'restore' as const, key: A, products: [el('1'), el('2', { moduleCompositionStatus: 'REMOVED' })], description: 'Old description', revertOf: 3 };

describe('a version restored from the History panel', () => {
  it('is an unsaved change of the card, marked as a revert of the version', () => {
    const s = editorReducer(loaded(), restore);
    expect(s.modules[A]!.products).toBe(restore.products);
    expect(s.modules[A]!.description).toBe('Old description');
    expect(s.modules[A]!.revertOf).toBe(3);
    expect(hasChanges(s.modules[A]!)).toBe(true);
  });

  it('is one undo step: Undo gives the composition back and drops the mark, Redo restores both', () => {
    const s = editorReducer(loaded(), restore);
    const undone = editorReducer(s, { type: 'undo' });
    expect(undone.modules[A]!.products).toBe(dtoA.productDtoList);
    expect(undone.modules[A]!.revertOf).toBeUndefined();
    expect(editorReducer(undone, { type: 'redo' }).modules[A]!.revertOf).toBe(3);
  });

  it('is forgotten once saved (the save answer refreshes the card): the next save is a plain one', () => {
    const s = editorReducer(loaded(), restore);
    const saved = editorReducer(s, { type: 'refreshed', dto: { ...dtoA, productDtoList: restore.products, version: 2 } });
    expect(saved.modules[A]!.revertOf).toBeUndefined();
    expect(hasChanges(saved.modules[A]!)).toBe(false);
  });
});
