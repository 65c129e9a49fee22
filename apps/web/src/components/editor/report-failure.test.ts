import { describe, expect, it } from 'vitest';
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { FAILURE_TEXTS } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { failureLines, isLostLock, LOST_LOCK_HINT, withLostLockHint } from './report-failure';

const MODULE_NOT_LOCKED = "Sorry! The module was unlocked by another user, you can't save or publish.";

describe('a lost lock (422 moduleNotLocked / clusterNotLocked)', () => {
  it('keeps the spec text as the first line, then says the changes are still here and how to keep them', () => {
    const lines = failureLines(new ApiError(422, 'moduleNotLocked', MODULE_NOT_LOCKED), 'An error occurred!');
    expect(lines[0]).toBe(MODULE_NOT_LOCKED);
    expect(lines.slice(1)).toEqual([...LOST_LOCK_HINT]);
    expect(lines.join(' ')).toMatch(/changes are still on this page/);
    expect(lines.join(' ')).toMatch(/reload the page to take the lock again/);
  });

  it('is the same for the cluster page', () => {
    expect(failureLines(new ApiError(422, 'clusterNotLocked', CLUSTER_TEXTS.clusterNotLocked), 'x')).toEqual([CLUSTER_TEXTS.clusterNotLocked, ...LOST_LOCK_HINT]);
  });

  it('is only the 422 with one of the two keys', () => {
    expect(isLostLock(new ApiError(422, 'clusterNotLocked', ''))).toBe(true);
    expect(isLostLock(new ApiError(422, 'notWip', ''))).toBe(false);
    expect(isLostLock(new ApiError(409, 'moduleNotLocked', ''))).toBe(false);
    expect(isLostLock(new Error(MODULE_NOT_LOCKED))).toBe(false);
  });

  it('adds the hint once to a save-all answer that names a module whose lock was lost', () => {
    const lines = withLostLockHint([`AU_1 (M01_2027): ${MODULE_NOT_LOCKED}`, `AU_2 (M01_2027): ${MODULE_NOT_LOCKED}`]);
    expect(lines).toEqual([`AU_1 (M01_2027): ${MODULE_NOT_LOCKED}`, `AU_2 (M01_2027): ${MODULE_NOT_LOCKED}`, ...LOST_LOCK_HINT]);
    expect(withLostLockHint(['AU_1 (M01_2027): The module is not WIP'])).toEqual(['AU_1 (M01_2027): The module is not WIP']);
  });
});

describe('other failures', () => {
  it('show the call’s own message (the API client words 5xx and network failures), or the fallback', () => {
    expect(failureLines(new ApiError(0, 'network', FAILURE_TEXTS.networkWrite), 'An error occurred!')).toEqual([FAILURE_TEXTS.networkWrite]);
    expect(failureLines(new ApiError(500, 'internalError', FAILURE_TEXTS.serverWrite), 'An error occurred!')).toEqual([FAILURE_TEXTS.serverWrite]);
    expect(failureLines('boom', 'An error occurred!')).toEqual(['An error occurred!']);
  });
});
