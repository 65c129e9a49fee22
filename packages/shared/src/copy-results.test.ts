import { describe, expect, it } from 'vitest';
import { copyResultLines, copySummary, type CopyOutcome } from './copy-results';

describe('copy results (issue 34 item 2)', () => {
  const outcome: CopyOutcome = {
    toPublish: true,
    counts: { copied: 2, published: 1, notPublished: 1, failed: 1 },
    copiedMonths: [{ itemKey: 'AU_01', months: ['M02_2027', 'M03_2027'] }],
    publishedMonths: [{ itemKey: 'AU_01', months: ['M02_2027'] }],
    notPublished: [{ itemKey: 'AU_01', months: ['M03_2027'], message: 'Copied, but not published: SKU 8050 is disabled in SAP' }],
    failed: [{ itemKey: 'AU_01', months: ['M12_2026'], message: 'The month is closed' }],
  };

  it('counts copied, published, not published and failed months', () => {
    expect(copySummary(outcome)).toBe('Copied 2 · Published 1 · Not published 1 · Failed 1');
    expect(copySummary({ ...outcome, toPublish: false })).toBe('Copied 2 · Failed 1');
  });

  it('says each outcome for what it is, without repeating "Copied, but"', () => {
    expect(copyResultLines('module', outcome)).toEqual([
      { text: 'Copied module AU_01 for the months: 02/2027, 03/2027', tone: 'success' },
      { text: 'Published module AU_01 (submission started) for the months: 02/2027', tone: 'success' },
      { text: 'Copied but NOT published: module AU_01 (03/2027): SKU 8050 is disabled in SAP', tone: 'warning' },
      { text: 'Not copied: module AU_01 (12/2026): The month is closed', tone: 'error' },
    ]);
  });
});
