import { describe, expect, it } from 'vitest';
import { clusterCreateSchema, clusterFormErrors, moduleCreateSchema, moduleFormErrors } from './creation.js';
import { classificationLabelError, initialSizeError, MESSAGES, textFieldError } from './validation.js';

const SPACE = "Attention! You can't add a space!";
const SPECIAL = "Attention! You can't use special characters!";

describe('text rules of the create forms', () => {
  const name = { field: 'module name', max: 24, kind: 'name', required: true } as const;
  const label = { field: 'module label', max: 40, kind: 'label', required: true } as const;

  it('words each broken rule, first one first', () => {
    expect(textFieldError('', name)).toBe('Insert the module name');
    expect(textFieldError('A B', name)).toBe(SPACE);
    expect(textFieldError('A\tB', name)).toBe(SPACE);
    expect(textFieldError('A/B', name)).toBe(SPECIAL);
    expect(textFieldError('A...', name)).toBe(SPECIAL);
    expect(textFieldError('A..B', name)).toBeNull();
    expect(textFieldError('N'.repeat(25), name)).toBe('The module name can have at most 24 characters');
    expect(textFieldError('Sun and sea', label)).toBeNull();
    expect(textFieldError('Sun & sea', label)).toBe(SPECIAL);
  });

  it('checks every special character of the spec', () => {
    for (const c of "!@#$%^&*()+-=[]{};':\"\\|,<>/?~") expect(textFieldError(`A${c}B`, label), c).toBe(SPECIAL);
    for (const c of '_.éß ') expect(textFieldError(`A${c}B`, label), c).toBeNull();
  });

  it('keeps initial sizes whole and not negative', () => {
    expect(initialSizeError(-1)).toBe(MESSAGES.negativeLength);
    expect(initialSizeError(0)).toBeNull();
    expect(initialSizeError(1.5)).toBe('The initial size must be a whole number');
    expect(initialSizeError(null)).toBeNull();
  });

  it('checks classification labels with the spec texts', () => {
    expect(classificationLabelError('')).toBe('Insert a valid client classification name');
    expect(classificationLabelError('vip')).toBe('Admitted characters: A-Z, 0-9, _, -');
    expect(classificationLabelError('TOP_10-A')).toBeNull();
    expect(classificationLabelError('A'.repeat(16))).toBe('The client classification can have at most 15 characters');
  });
});

describe('form and request checks agree', () => {
  const good = { macroFamily: 'PILOT', collection: 'SUN', brand: 'AUR', starZones: ['EU'], moduleName: 'AUR_X', moduleLabel: 'Aurora X', moduleDescription: '', initialSize: 3 };

  it('module', () => {
    expect(moduleFormErrors(good)).toEqual({});
    expect(moduleCreateSchema.safeParse({ ...good, monthId: 'M03_2027' }).success).toBe(true);
    const bad = { ...good, macroFamily: null, starZones: [], moduleName: 'A B', initialSize: -2 };
    expect(moduleFormErrors(bad)).toEqual({
      macroFamily: 'Choose a macro family',
      starZones: 'Choose at least one Stars Zone',
      moduleName: SPACE,
      initialSize: MESSAGES.negativeLength,
    });
    const parsed = moduleCreateSchema.safeParse({ ...bad, macroFamily: '', monthId: 'M03_2027' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message).sort()).toEqual([SPACE, MESSAGES.negativeLength, 'Choose a macro family', 'Choose at least one Stars Zone'].sort());
  });

  it('cluster', () => {
    expect(clusterFormErrors({ collection: null, brandCode: 'AUR', lias: [], clusterId: 'C-1', clusterLabel: 'Ok', clusterDescription: '', starZones: ['EU'], storeCount: 0 })).toEqual({
      collection: 'Choose a collection',
      lias: 'At least one lia must be selected',
      clusterId: SPECIAL,
      storeCount: 'Add at least one store',
    });
    const body = {
      clusterId: 'AUR_SUN_IT_01',
      clusterLabel: 'Aurora Sun Italy',
      monthId: 'M03_2027',
      brandCode: 'AUR',
      collection: 'SUN',
      lias: [{ liaCode: 'A', isChecked: true }, { liaCode: 'B', isChecked: false }, 'C'],
      starZones: ['EU'],
      stores: [{ codiceStoreSap: 'S1', starsCustomer: 'C1', customerSegmentation: 'GOLD' }],
    };
    const parsed = clusterCreateSchema.parse(body);
    expect(parsed.lias).toEqual(['A', 'C']);
    expect(parsed.stores[0]!.customerSegmentation).toEqual(['GOLD']);
    expect(parsed.clusterDescription).toBe('');
  });
});
