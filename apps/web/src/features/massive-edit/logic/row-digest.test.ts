import { describe, expect, it } from 'vitest';
import type { MassiveEditRowResult } from '@bo/shared/massive-edit';
import { rowDigest } from './row-digest';

const item = (monthId: string, outcome: 'applied' | 'unchanged' | 'failed', extra: object = {}) => ({
  itemKey: 'CL_1',
  label: 'Core',
  monthId,
  outcome,
  changes: outcome === 'applied' ? ['Added client classification A1'] : [],
  reason: outcome === 'failed' ? 'The month 01/2027 is closed' : null,
  published: null,
  publishError: null,
  ...extra,
});

describe('rowDigest (the classification preview: one line per row)', () => {
  it('names the cluster once, counts its months and lists each change once', () => {
    const months = Array.from({ length: 14 }, (_, i) => `M${String((i % 12) + 1).padStart(2, '0')}_${2027 + Math.floor(i / 12)}`);
    const row: MassiveEditRowResult = { row: 1, outcome: 'applied', message: '', error: null, items: months.map((m) => item(m, 'applied')) };
    expect(rowDigest(row)).toEqual({ items: 'Core (CL_1)', months: 'in 14 months', changes: ['Added client classification A1'], failures: [], unchanged: 0 });
  });

  it('groups failures by reason with their months', () => {
    const row: MassiveEditRowResult = { row: 2, outcome: 'partial', message: '', error: null, items: [item('M01_2027', 'failed'), item('M02_2027', 'applied'), item('M03_2027', 'unchanged')] };
    const d = rowDigest(row);
    expect(d.failures).toEqual(['The month 01/2027 is closed — CL_1 (in 01/2027)']);
    expect(d.unchanged).toBe(1);
    expect(d.months).toBe('in 3 months');
  });
});
