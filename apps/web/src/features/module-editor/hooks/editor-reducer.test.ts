import { describe, expect, it } from 'vitest';
import { moveWithin } from '../logic/drop-rules';
import { binned, el, mh, workingModule } from '../test/builders';
import {
  activeCounts,
  compositionEdited,
  countCautionLine,
  countsDifferFromPrevious,
  editorReducer,
  hasChanges,
  HISTORY_LIMIT,
  initialEditorState,
  isDescriptionEdited,
  isEdited,
  previousCounts,
  toSaveBody,
  type EditorState,
} from './editor-reducer';

const A = 'A|M01_2027';
const B = 'B|M01_2027';
const dtoA = workingModule('A', [mh('1'), el('2'), binned('3', 'EL')]);
const dtoB = workingModule('B', [mh('7')]);
const loaded = (): EditorState => editorReducer(initialEditorState, { type: 'loaded', dtos: [dtoA, dtoB], replace: true });
const binOne = (s: EditorState, upc = '1') => {
  const o = moveWithin(s.modules[A]!.products, upc, 'BIN');
  if (o.kind !== 'apply') throw new Error('no move');
  return editorReducer(s, { type: 'products', key: A, products: o.products });
};

describe('editorReducer', () => {
  it('loads modules in the order asked, unedited, with an empty history', () => {
    const s = loaded();
    expect(s.order).toEqual([A, B]);
    expect(s.modules[A]!.products).toBe(dtoA.productDtoList);
    expect(s.modules[A]!.description).toBe('Description');
    expect(hasChanges(s.modules[A]!)).toBe(false);
    expect(s.past).toEqual([]);
  });

  it('adds imported modules after the others, ignoring ones already on the page, in every snapshot', () => {
    const edited = binOne(loaded());
    const dtoC = workingModule('C', [el('9')]);
    const s = editorReducer(edited, { type: 'loaded', dtos: [workingModule('A', []), dtoC] });
    expect(s.order).toEqual([A, B, 'C|M01_2027']);
    expect(s.modules[A]).toBe(edited.modules[A]); // the edited A is kept, not replaced
    expect(s.past[0]!['C|M01_2027']).toBeDefined(); // undo keeps the imported module
  });

  it('records a composition change as one undo step; undo and redo walk it', () => {
    const s0 = loaded();
    const s1 = binOne(s0);
    expect(s1.modules[A]!.products.find((p) => p.upc === '1')!.moduleCompositionStatus).toBe('REMOVED');
    expect(s1.modules[B]).toBe(s0.modules[B]); // untouched modules are shared
    expect(isEdited(s1.modules[A]!)).toBe(true);
    expect(s1.past).toHaveLength(1);
    const undone = editorReducer(s1, { type: 'undo' });
    expect(undone.modules).toBe(s0.modules);
    expect(hasChanges(undone.modules[A]!)).toBe(false);
    expect(undone.future).toHaveLength(1);
    const redone = editorReducer(undone, { type: 'redo' });
    expect(redone.modules).toBe(s1.modules);
    expect(redone.future).toHaveLength(0);
  });

  it('drops the redo branch on a new edit, and undo/redo with nothing to do change nothing', () => {
    const s0 = loaded();
    expect(editorReducer(s0, { type: 'undo' })).toBe(s0);
    expect(editorReducer(s0, { type: 'redo' })).toBe(s0);
    const undone = editorReducer(binOne(s0), { type: 'undo' });
    const other = binOne(undone, '2');
    expect(other.future).toEqual([]);
  });

  it('merges consecutive typing in one field into one undo step', () => {
    let s = loaded();
    for (const value of ['N', 'Ne', 'New']) s = editorReducer(s, { type: 'description', key: A, value });
    expect(s.modules[A]!.description).toBe('New');
    expect(isDescriptionEdited(s.modules[A]!)).toBe(true);
    expect(s.past).toHaveLength(1);
    for (const value of [2, 3]) s = editorReducer(s, { type: 'minValue', key: A, upc: '2', value });
    expect(s.past).toHaveLength(2);
    expect(s.modules[A]!.products.find((p) => p.upc === '2')!.minValue).toBe(3);
    expect(editorReducer(s, { type: 'undo' }).modules[A]!.description).toBe('New');
    expect(editorReducer(editorReducer(s, { type: 'undo' }), { type: 'undo' }).modules[A]!.description).toBe('Description');
  });

  it('ignores edits that change nothing and edits of modules not on the page', () => {
    const s = loaded();
    expect(editorReducer(s, { type: 'description', key: A, value: 'Description' })).toBe(s);
    expect(editorReducer(s, { type: 'newModule', key: A, value: false })).toBe(s);
    expect(editorReducer(s, { type: 'products', key: 'X|M01_2027', products: [] })).toBe(s);
  });

  it('keeps at most HISTORY_LIMIT undo steps', () => {
    let s = loaded();
    for (let i = 0; i <= HISTORY_LIMIT + 5; i++) s = editorReducer(s, { type: 'newModule', key: A, value: i % 2 === 0 });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
  });

  it('a save (refresh from the server) rewrites the module in the whole history: undo never goes back past it', () => {
    const s1 = binOne(loaded());
    const saved = workingModule('A', s1.modules[A]!.products.map((p) => ({ ...p })));
    const s2 = editorReducer(s1, { type: 'refreshed', dto: saved });
    expect(hasChanges(s2.modules[A]!)).toBe(false);
    const undone = editorReducer(s2, { type: 'undo' });
    expect(undone.modules[A]!.dto).toBe(saved);
    expect(undone.modules[A]!.products.find((p) => p.upc === '1')!.moduleCompositionStatus).toBe('REMOVED');
    expect(editorReducer(s2, { type: 'refreshed', dto: workingModule('Z', []) })).toBe(s2);
  });

  it('closes a module everywhere', () => {
    const s = editorReducer(binOne(loaded()), { type: 'closed', key: B });
    expect(s.order).toEqual([A]);
    expect(s.modules[B]).toBeUndefined();
    expect(s.past.every((m) => m[B] === undefined)).toBe(true);
  });
});

describe('derived values', () => {
  it('counts active MH and EL (not the bin) and compares them with the previous month', () => {
    const m = loaded().modules[A]!;
    expect(activeCounts(m.products)).toEqual({ mh: 1, el: 1 });
    expect(countsDifferFromPrevious(m)).toBe(false);
    const edited = binOne(loaded()).modules[A]!;
    expect(activeCounts(edited.products)).toEqual({ mh: 0, el: 1 });
    expect(countsDifferFromPrevious(edited)).toBe(true);
  });

  it('names both numbers in the caution line: this month and the previous month', () => {
    const edited = binOne(loaded()).modules[A]!;
    expect(countCautionLine(edited)).toBe('A: this month 1 SKU (MH 0, EL 1), previous month 2 SKUs (MH 1, EL 1)');
    expect(previousCounts(edited)).toEqual({ mh: 1, el: 1 });
  });

  it('gives no caution when the previous month has no version of the module (the server sends 0 and 0)', () => {
    const m = loaded().modules[A]!;
    const isNew = { ...m, dto: { ...m.dto, previousMustHave: 0, previousEligible: 0 } };
    expect(previousCounts(isNew)).toBeNull();
    expect(activeCounts(isNew.products)).toEqual({ mh: 1, el: 1 });
    expect(countsDifferFromPrevious(isNew)).toBe(false);
    // A previous month with only EL SKUs is a version: its count is compared.
    expect(countsDifferFromPrevious({ ...m, dto: { ...m.dto, previousMustHave: 0, previousEligible: 1 } })).toBe(true);
  });

  it('sees a composition equal to the server one as unedited (a move and its way back)', () => {
    const s = loaded();
    const there = moveWithin(s.modules[A]!.products, '1', 'EL');
    if (there.kind !== 'apply') throw new Error('no move');
    const back = moveWithin(there.products, '1', 'MH');
    if (back.kind !== 'apply') throw new Error('no move');
    const m = { ...s.modules[A]!, products: back.products };
    expect(m.products).not.toBe(m.dto.productDtoList);
    expect(compositionEdited(m)).toBe(false);
    expect(compositionEdited({ ...m, products: there.products })).toBe(true);
  });

  it('builds the save body with the working composition, and the new description only when asked', () => {
    let s = binOne(loaded());
    s = editorReducer(s, { type: 'description', key: A, value: 'Other' });
    const body = toSaveBody(s.modules[A]!, true);
    expect(body).toMatchObject({ moduleName: 'A', monthId: 'M01_2027', moduleDescription: 'Description', newDescription: 'Other', isEdited: true, isDescriptionEdited: true });
    expect(body.productDtoList).toEqual([
      { upc: '1', mustHave: true, moduleCompositionStatus: 'REMOVED', minValue: 1 },
      { upc: '2', mustHave: false, moduleCompositionStatus: 'ADDED', minValue: 1 },
      { upc: '3', mustHave: false, moduleCompositionStatus: 'REMOVED', minValue: 1 },
    ]);
    expect(toSaveBody(s.modules[A]!, false)).toMatchObject({ newDescription: null, isDescriptionEdited: false });
  });
});
