import type { CompositionLine } from '@bo/shared/modules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompositionDraft, MODULE_LINE_TEXTS, skuProblem } from './module-lines.js';

const line = (upc: string, over: Partial<CompositionLine> = {}): CompositionLine => ({
  upc,
  mustHave: true,
  moduleCompositionStatus: 'ADDED',
  minValue: 1,
  previousStatus: null,
  ...over,
});

/** What the module holds for the planning system: the lines not in the bin, as UPC → class and min value. */
const active = (lines: readonly CompositionLine[]) =>
  Object.fromEntries(lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED').map((l) => [l.upc, { mustHave: l.mustHave, minValue: l.minValue ?? 1 }]));

describe('skuProblem', () => {
  const module = { brandCode: 'AUR', collection: 'SUN' };
  const sku = { brandCode: 'AUR', collection: 'SUN', deleted: false };

  it('refuses an unknown SKU, then one of another brand or collection', () => {
    expect(skuProblem(undefined, module, false)).toBe('unknown');
    expect(skuProblem({ ...sku, brandCode: 'OTH' }, module, false)).toBe('otherScope');
    expect(skuProblem({ ...sku, collection: 'OPTICAL' }, module, true)).toBe('otherScope');
    expect(skuProblem({ ...sku, brandCode: 'OTH', deleted: true }, module, true)).toBe('otherScope');
    expect(skuProblem(sku, module, true)).toBeNull();
  });

  it('refuses a deleted SKU only when it would be added or brought back', () => {
    expect(skuProblem({ ...sku, deleted: true }, module, true)).toBe('deleted');
    expect(skuProblem({ ...sku, deleted: true }, module, false)).toBeNull();
  });
});

describe('CompositionDraft', () => {
  it('adds a new SKU at the end with min value 1, or the one given', () => {
    const draft = new CompositionDraft([line('A')]);
    draft.put('B', false);
    draft.put('C', true, 2.5);
    expect(draft.lines).toEqual([line('A'), line('B', { mustHave: false }), line('C', { minValue: 2.5 })]);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.added('B', 'EL'), MODULE_LINE_TEXTS.added('C', 'MH')]);
  });

  it('brings a SKU back from the bin as ADDED in its new class, keeping its min value unless one is given', () => {
    const bin = [line('A', { moduleCompositionStatus: 'REMOVED', previousStatus: 'NEW', minValue: 4 }), line('B', { moduleCompositionStatus: 'REMOVED', previousStatus: 'ADDED' })];
    const draft = new CompositionDraft(bin);
    draft.put('A', false);
    draft.put('B', true, 3);
    expect(draft.lines).toEqual([line('A', { mustHave: false, minValue: 4 }), line('B', { minValue: 3 })]);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.restored('A', 'EL'), MODULE_LINE_TEXTS.restored('B', 'MH')]);
  });

  it('moves an active SKU to the other class, then sets its min value, one change line each', () => {
    const draft = new CompositionDraft([line('A', { moduleCompositionStatus: 'NEW', minValue: 2 })]);
    draft.put('A', false, 5);
    expect(draft.lines).toEqual([line('A', { moduleCompositionStatus: 'NEW', mustHave: false, minValue: 5 })]);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.moved('A', 'MH', 'EL'), MODULE_LINE_TEXTS.minValue('A', 2, 5)]);
  });

  it('changes nothing for an active SKU already as asked', () => {
    const draft = new CompositionDraft([line('A', { minValue: 2 })]);
    draft.put('A', true);
    draft.put('A', true, 2);
    draft.setMinValue('A', 2);
    expect(draft.lines).toEqual([line('A', { minValue: 2 })]);
    expect(draft.changes).toEqual([]);
  });

  it('sends an active SKU to the bin remembering its status; a SKU not there or already in the bin is nothing to do', () => {
    const binned = line('C', { moduleCompositionStatus: 'REMOVED', previousStatus: 'ADDED' });
    const draft = new CompositionDraft([line('A', { moduleCompositionStatus: 'NEW' }), line('B'), binned]);
    draft.remove('A');
    draft.remove('C');
    draft.remove('Z');
    expect(draft.lines).toEqual([line('A', { moduleCompositionStatus: 'REMOVED', previousStatus: 'NEW' }), line('B'), binned]);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.removed('A')]);
    expect(draft.activeUpcs()).toEqual(['B']);
    expect([draft.isActive('A'), draft.isActive('B'), draft.isActive('C'), draft.isActive('Z')]).toEqual([false, true, false, false]);
  });

  it('gives a min value only to an active line', () => {
    const draft = new CompositionDraft([line('A', { moduleCompositionStatus: 'REMOVED', previousStatus: 'ADDED' })]);
    expect(() => draft.setMinValue('A', 2)).toThrow(/not an active line/);
    expect(() => draft.setMinValue('Z', 2)).toThrow(/not an active line/);
    draft.put('A', true);
    draft.setMinValue('A', 2);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.restored('A', 'MH'), MODULE_LINE_TEXTS.minValue('A', 1, 2)]);
  });

  it('reads a missing min value as 1', () => {
    const draft = new CompositionDraft([line('A', { minValue: undefined })]);
    draft.setMinValue('A', 3);
    expect(draft.changes).toEqual([MODULE_LINE_TEXTS.minValue('A', 1, 3)]);
  });
});

// Properties over any composition and any sequence of operations, on a small pool of UPCs so that
// operations meet the same lines often.
const UPCS = ['U1', 'U2', 'U3', 'U4', 'U5', 'U6'];
const upc = fc.constantFrom(...UPCS);
const minValue = fc.constantFrom(1, 2, 2.5, 10);
const status = fc.constantFrom('ADDED', 'NEW', 'REMOVED') as fc.Arbitrary<CompositionLine['moduleCompositionStatus']>;
const composition = fc.uniqueArray(
  fc.record({ upc, mustHave: fc.boolean(), moduleCompositionStatus: status, minValue, previousStatus: fc.constantFrom(null, 'ADDED', 'NEW') }),
  { selector: (l) => l.upc, maxLength: UPCS.length },
);
type Op = { op: 'put'; upc: string; mustHave: boolean; minValue: number | null } | { op: 'remove'; upc: string } | { op: 'min'; upc: string; value: number };
const operation: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), upc, mustHave: fc.boolean(), minValue: fc.option(minValue, { nil: null }) }),
  fc.record({ op: fc.constant('remove' as const), upc }),
  fc.record({ op: fc.constant('min' as const), upc, value: minValue }),
);

function run(draft: CompositionDraft, op: Op): void {
  if (op.op === 'put') draft.put(op.upc, op.mustHave, op.minValue);
  else if (op.op === 'remove') draft.remove(op.upc);
  else if (draft.isActive(op.upc)) draft.setMinValue(op.upc, op.value);
}

describe('CompositionDraft properties', () => {
  it('never holds a UPC twice, keeps the lines it started with in place and never touches its input', () => {
    fc.assert(
      fc.property(composition, fc.array(operation, { maxLength: 30 }), (start, ops) => {
        const snapshot = structuredClone(start);
        const draft = new CompositionDraft(start);
        for (const op of ops) run(draft, op);
        const upcs = draft.lines.map((l) => l.upc);
        expect(new Set(upcs).size).toBe(upcs.length);
        expect(upcs.slice(0, start.length)).toEqual(start.map((l) => l.upc));
        expect(start).toEqual(snapshot);
      }),
    );
  });

  it('writes one change line exactly when an operation changes the lines', () => {
    fc.assert(
      fc.property(composition, fc.array(operation, { maxLength: 30 }), (start, ops) => {
        const draft = new CompositionDraft(start);
        for (const op of ops) {
          const before = structuredClone(draft.lines);
          const count = draft.changes.length;
          run(draft, op);
          const changed = JSON.stringify(draft.lines) !== JSON.stringify(before);
          // A put on an active line may change its class and its min value: two lines for one call.
          const lines = draft.changes.length - count;
          if (changed) expect(lines).toBeGreaterThanOrEqual(1);
          else expect(lines).toBe(0);
          expect(lines).toBeLessThanOrEqual(2);
        }
      }),
    );
  });

  it('adding a SKU that is not active, then removing it, leaves the active composition as it was', () => {
    fc.assert(
      fc.property(composition, upc, fc.boolean(), fc.option(minValue, { nil: null }), (start, u, mustHave, min) => {
        const draft = new CompositionDraft(start);
        fc.pre(!draft.isActive(u));
        draft.put(u, mustHave, min);
        expect(draft.isActive(u)).toBe(true);
        draft.remove(u);
        expect(active(draft.lines)).toEqual(active(start));
        expect(draft.lines.find((l) => l.upc === u)).toMatchObject({ moduleCompositionStatus: 'REMOVED', previousStatus: 'ADDED' });
      }),
    );
  });

  it('removing an active SKU, then adding it back in its class, leaves the active composition as it was', () => {
    fc.assert(
      fc.property(composition, upc, (start, u) => {
        const draft = new CompositionDraft(start);
        fc.pre(draft.isActive(u));
        const was = start.find((l) => l.upc === u)!;
        draft.remove(u);
        draft.put(u, was.mustHave);
        expect(active(draft.lines)).toEqual(active(start));
        expect(draft.changes).toEqual([MODULE_LINE_TEXTS.removed(u), MODULE_LINE_TEXTS.restored(u, was.mustHave ? 'MH' : 'EL')]);
      }),
    );
  });

  it('is idempotent: the same put or remove twice changes what it changes once', () => {
    fc.assert(
      fc.property(composition, operation, (start, op) => {
        fc.pre(op.op !== 'min');
        const once = new CompositionDraft(start);
        run(once, op);
        const twice = new CompositionDraft(start);
        run(twice, op);
        run(twice, op);
        expect(twice.lines).toEqual(once.lines);
        expect(twice.changes).toEqual(once.changes);
      }),
    );
  });

  it('puts the given SKUs as the active composition when the others are removed (what Import Module does)', () => {
    fc.assert(
      fc.property(composition, fc.uniqueArray(fc.record({ upc, mustHave: fc.boolean(), minValue }), { selector: (l) => l.upc }), (start, file) => {
        const draft = new CompositionDraft(start);
        for (const l of file) draft.put(l.upc, l.mustHave, l.minValue);
        const inFile = new Set(file.map((l) => l.upc));
        for (const u of draft.activeUpcs()) if (!inFile.has(u)) draft.remove(u);
        expect(active(draft.lines)).toEqual(Object.fromEntries(file.map((l) => [l.upc, { mustHave: l.mustHave, minValue: l.minValue }])));
      }),
    );
  });
});
