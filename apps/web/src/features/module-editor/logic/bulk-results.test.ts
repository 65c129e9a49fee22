import { describe, expect, it } from 'vitest';
import { BULK_RESULT_TEXTS, publishedSummary } from './bulk-results';

describe('the working area’s Save All / Publish All results (issue 34 item 2)', () => {
  it('counts published, not published and still submitting modules', () => {
    expect(
      publishedSummary([
        { status: 'SUBMITTED', rejected: false },
        { status: 'WIP', rejected: true },
        { status: 'SUBMIT_IN_PROGRESS', rejected: false },
      ]),
    ).toBe('Published 1 · Not published 1 · Still being submitted 1');
    expect(publishedSummary([{ status: 'WIP', rejected: true }])).toBe('Published 0 · Not published 1');
  });

  it('says a refused all-or-nothing call saved or published nothing', () => {
    expect(BULK_RESULT_TEXTS.nothingSaved(1, 3)).toBe('Nothing was saved: 1 of 3 modules were refused, and Save All saves all or none.');
    expect(BULK_RESULT_TEXTS.nothingPublished(2, 2)).toBe('Nothing was published: 2 of 2 modules were refused, and Publish All publishes all or none.');
  });
});
