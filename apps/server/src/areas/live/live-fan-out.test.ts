import { describe, expect, it } from 'vitest';
import type { Grant } from '@bo/shared/grants';
import type { AuthUser } from '../../auth/auth.service.js';
import { BatchFanOut } from './live-fan-out.js';
import { NoticeBatch } from './live-notices.js';
import type { ItemState } from './live.repository.js';

const grant = (brands: string[], starsZones: string[]): Grant => ({ role: 'VIEWER', types: ['view'], rules: [], brands, starsZones });
const user = (username: string, grants: Grant[]): AuthUser => ({ userId: 1, username, email: '', firstName: '', lastName: '', role: 'VIEWER', grants });
const state = (name: string, brandCode: string): ItemState => ({
  kind: 'module',
  id: name.length,
  name,
  monthId: '2026-11',
  brandCode,
  status: 'WIP',
  version: 1,
  lockedBy: null,
  savedAt: null,
  savedBy: null,
});

/** A batch of two items (AUR, VLT), three scopes, presence on the AUR item and a lock anna lost on the VLT one. */
function fanOut(): BatchFanOut {
  const batch = new NoticeBatch();
  batch.add(JSON.stringify({ i: [['module', 'A1', '2026-11'], ['module', 'V1', '2026-11']] }));
  batch.add(JSON.stringify({ s: [['2026-11', 'VLT'], ['2026-11', '*'], ['2026-11', 'AUR']] }));
  batch.add(JSON.stringify({ p: [['module', 'A1', '2026-11']] }));
  batch.add(JSON.stringify({ l: [['module', 'V1', '2026-11', 'anna', 'forced', 'bruno']] }));
  const states = new Map([
    ['module|2026-11|A1', state('A1', 'AUR')],
    ['module|2026-11|V1', state('V1', 'VLT')],
  ]);
  const scopes = new Map([
    ['module|2026-11|A1', { brand: 'AUR', zones: ['EU'] }],
    ['module|2026-11|V1', { brand: 'VLT', zones: ['EU'] }],
  ]);
  return new BatchFanOut(batch, { states, scopes, viewers: new Map(), jobs: [] });
}

describe('BatchFanOut', () => {
  it("gives a user the batch's events they may see, in the batch's order, as one text", () => {
    const out = fanOut().framesFor(user('anna', [grant(['AUR'], ['EU'])]));
    expect(out.frames.map((f) => f.type)).toEqual(['item', 'scope', 'scope', 'presence']);
    expect(out.text).toBe(out.frames.map((f) => f.text).join(''));
    expect(out.text).toContain('event: item\ndata: {"kind":"module","name":"A1","monthId":"2026-11","brand":"AUR"');
    expect(out.text).not.toContain('V1');
    expect(out.text).not.toContain('"brand":"VLT"');
  });

  it('works a user out once: streams of one user, or of the same name and grants, share the answer', () => {
    const batch = fanOut();
    const vlt = [grant(['VLT'], ['EU'])];
    const first = batch.framesFor(user('anna', vlt));
    expect(batch.framesFor(user('anna', [grant(['VLT'], ['EU'])]))).toBe(first);
    expect(first.frames.map((f) => f.type)).toEqual(['item', 'scope', 'scope', 'lockLost']);
    // Another name with the same grants: its own answer (lost locks and jobs go to one user only).
    expect(batch.framesFor(user('bruno', vlt)).frames.map((f) => f.type)).toEqual(['item', 'scope', 'scope']);
  });
});
