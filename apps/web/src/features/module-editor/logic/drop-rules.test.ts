import { describe, expect, it } from 'vitest';
import { WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { binned, el, mh } from '../test/builders';
import { addFromElsewhere, areaOf, dropFeedback, moveWithin, restoreWarning, sameFamilyOfModules, skuLabel, toggleClass, type DropOutcome } from './drop-rules';

const applied = (o: DropOutcome) => {
  if (o.kind !== 'apply') throw new Error(`expected an applied drop, got ${o.kind}`);
  return o;
};
const byUpc = (o: DropOutcome, upc: string) => applied(o).products.find((p) => p.upc === upc)!;

describe('areaOf', () => {
  it('reads MH, EL and the bin from the class and the composition status', () => {
    expect(areaOf(mh('1'))).toBe('MH');
    expect(areaOf(el('1'))).toBe('EL');
    expect(areaOf(binned('1', 'MH'))).toBe('BIN');
  });
});

describe('moveWithin (a drop inside the SKU’s own module)', () => {
  const products = [mh('1'), el('2'), binned('3', 'MH'), binned('4', 'EL')];

  it('moves MH to EL and EL to MH, keeping the status and the order, without touching the input', () => {
    const toEl = byUpc(moveWithin(products, '1', 'EL'), '1');
    expect(toEl).toMatchObject({ mustHave: false, eligible: true, moduleCompositionStatus: 'ADDED' });
    const toMh = byUpc(moveWithin(products, '2', 'MH'), '2');
    expect(toMh).toMatchObject({ mustHave: true, eligible: false });
    expect(applied(moveWithin(products, '1', 'EL')).products.map((p) => p.upc)).toEqual(['1', '2', '3', '4']);
    expect(products[0]!.mustHave).toBe(true);
  });

  it('bins a SKU as REMOVED, remembering its class and previous status', () => {
    const out = byUpc(moveWithin(products, '1', 'BIN'), '1');
    expect(out).toMatchObject({ moduleCompositionStatus: 'REMOVED', previousVersion: 'MH', previousStatus: 'ADDED', mustHave: true });
  });

  it('restores from the bin as ADDED, silently when the class is the same', () => {
    const o = applied(moveWithin(products, '3', 'MH'));
    expect(o.warning).toBeUndefined();
    expect(byUpc(o, '3')).toMatchObject({ moduleCompositionStatus: 'ADDED', mustHave: true, eligible: false, previousVersion: null });
  });

  it('warns when the restored class differs from the one before removal', () => {
    const o = applied(moveWithin(products, '3', 'EL'));
    expect(o.warning).toBe('Attention! The SKU was MH before it was removed: it is restored as EL.');
    expect(o.warning).toBe(restoreWarning('MH', 'EL'));
    expect(byUpc(o, '3')).toMatchObject({ moduleCompositionStatus: 'ADDED', mustHave: false, eligible: true });
    expect(applied(moveWithin(products, '4', 'MH')).warning).toBe(restoreWarning('EL', 'MH'));
  });

  it('does nothing for a drop on the area the SKU is already in, or an unknown SKU', () => {
    expect(moveWithin(products, '1', 'MH')).toEqual({ kind: 'none' });
    expect(moveWithin(products, '3', 'BIN')).toEqual({ kind: 'none' });
    expect(moveWithin(products, 'nope', 'EL')).toEqual({ kind: 'none' });
  });
});

describe('toggleClass (double-click, M key)', () => {
  it('switches MH ↔ EL and leaves bin SKUs alone', () => {
    const products = [mh('1'), el('2'), binned('3', 'MH')];
    expect(byUpc(toggleClass(products, '1'), '1').mustHave).toBe(false);
    expect(byUpc(toggleClass(products, '2'), '2').mustHave).toBe(true);
    expect(toggleClass(products, '3')).toEqual({ kind: 'none' });
    expect(toggleClass(products, 'nope')).toEqual({ kind: 'none' });
  });
});

describe('sameFamilyOfModules', () => {
  const a = { monthId: 'M01_2027', brand: 'AUR', collection: 'SUN' };
  it('needs the same month, brand and collection', () => {
    expect(sameFamilyOfModules(a, { ...a })).toBe(true);
    expect(sameFamilyOfModules(a, { ...a, monthId: 'M02_2027' })).toBe(false);
    expect(sameFamilyOfModules(a, { ...a, brand: 'MRA' })).toBe(false);
    expect(sameFamilyOfModules(a, { ...a, collection: 'OPT' })).toBe(false);
  });
});

describe('addFromElsewhere (another module or the Active SKUs panel)', () => {
  const target = [mh('1'), el('2'), binned('3', 'MH')];

  it('copies a new SKU to the end as ADDED, MH only when dropped on MH', () => {
    const onMh = applied(addFromElsewhere(target, el('9', { minValue: 4 }), 'MH', true));
    expect(onMh.products.map((p) => p.upc)).toEqual(['1', '2', '3', '9']);
    expect(onMh.products.at(-1)).toMatchObject({ upc: '9', mustHave: true, eligible: false, moduleCompositionStatus: 'ADDED', previousVersion: null, previousStatus: null, minValue: 4 });
    const onEl = applied(addFromElsewhere(target, mh('9'), 'EL', true));
    expect(onEl.products.at(-1)).toMatchObject({ upc: '9', mustHave: false, eligible: true, moduleCompositionStatus: 'ADDED' });
  });

  it('refuses a SKU from another month, brand or collection', () => {
    expect(addFromElsewhere(target, el('9'), 'MH', false)).toEqual({ kind: 'error', title: 'Error!', message: WORKING_AREA_TEXTS.differentModule });
    expect(WORKING_AREA_TEXTS.differentModule).toBe('The starting module is different from the end module.');
  });

  it('refuses a SKU already present (MH or EL) with the spec popup, naming it as its tile does', () => {
    const tagged = [{ ...mh('1'), model: 'AU7112', color: '001', size: '51' }, el('2')];
    const present = { kind: 'error', title: 'Error!', message: 'The sku is already present' };
    expect(addFromElsewhere(tagged, el('1'), 'EL', true)).toEqual({ ...present, detail: 'AU7112 001 51 is already in this module' });
    expect(addFromElsewhere(tagged, mh('2'), 'MH', true)).toEqual({ ...present, detail: 'M2 001 55 is already in this module' });
  });

  it('brings back a SKU waiting in the target’s bin, in its place and with its min value', () => {
    const withMin = [mh('1'), { ...binned('3', 'MH'), minValue: 7 }, el('2')];
    const o = applied(addFromElsewhere(withMin, el('3', { minValue: 1 }), 'EL', true));
    expect(o.products.map((p) => p.upc)).toEqual(['1', '3', '2']);
    expect(o.products[1]).toMatchObject({ moduleCompositionStatus: 'ADDED', mustHave: false, minValue: 7, previousVersion: null });
  });

  it('ignores a drop on the bin of another module', () => {
    expect(addFromElsewhere(target, el('9'), 'BIN', true)).toEqual({ kind: 'none' });
  });
});

describe('dropFeedback (what the page does with an outcome)', () => {
  it('answers a duplicate drop with the spec popup naming the SKU and no new composition (so no undo step)', () => {
    const target = [{ ...mh('1'), model: 'AU7112', color: '001', size: '51' }];
    expect(dropFeedback(addFromElsewhere(target, el('1'), 'MH', true))).toEqual({
      products: null,
      popup: { title: 'Error!', lines: ['The sku is already present', 'AU7112 001 51 is already in this module'] },
      flash: null,
    });
  });

  it('keeps the refusal popup for a drop from another month, brand or collection', () => {
    expect(dropFeedback(addFromElsewhere([mh('1')], el('9'), 'MH', false))).toEqual({
      products: null,
      popup: { title: 'Error!', lines: [WORKING_AREA_TEXTS.differentModule] },
      flash: null,
    });
  });

  it('applies a composition, with the class warning as a flash when there is one', () => {
    const products = [binned('3', 'MH')];
    const restored = dropFeedback(moveWithin(products, '3', 'EL'));
    expect(restored.products?.[0]).toMatchObject({ upc: '3', moduleCompositionStatus: 'ADDED' });
    expect(restored.flash).toEqual({ message: restoreWarning('MH', 'EL'), kind: 'warning', title: 'Warning' });
    expect(restored.popup).toBeNull();
    expect(dropFeedback({ kind: 'none' })).toEqual({ products: null, popup: null, flash: null });
  });
});

describe('skuLabel', () => {
  it('reads model, colour and size as the tile shows them', () => {
    expect(skuLabel({ model: 'AU7112', color: '001', size: '51' })).toBe('AU7112 001 51');
  });
});
