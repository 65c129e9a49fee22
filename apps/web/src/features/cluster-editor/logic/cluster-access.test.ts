import { describe, expect, it } from 'vitest';
import { cluster, grant } from '../test/builders';
import { clusterAccess, READ_ONLY_TEXT } from './cluster-access';

const KEY = 'C1|M01_2027';
const held = { [KEY]: { acquired: true, userLock: 'me' } };
const editor = [grant(['edit'])];
const publisher = [grant(['edit', 'submit'])];

describe('cluster access', () => {
  it('is editable with an edit grant and our own lock; publishing needs the submit grant and WIP', () => {
    expect(clusterAccess(editor, 'me', cluster('C1'), held, KEY)).toEqual({ reason: null, readOnly: false, lockedBy: null, canPublish: false });
    expect(clusterAccess(publisher, 'me', cluster('C1'), held, KEY).canPublish).toBe(true);
    expect(clusterAccess(publisher, 'me', cluster('C1', [], { status: 'SUBMITTED' }), held, KEY)).toMatchObject({ readOnly: false, canPublish: false });
  });

  it('is read-only without an edit grant on the brand and zone', () => {
    expect(clusterAccess([grant(['view'])], 'me', cluster('C1'), held, KEY).reason).toBe(READ_ONLY_TEXT.noEditGrant);
    expect(clusterAccess([grant(['edit'], { brands: ['RAY'] })], 'me', cluster('C1'), held, KEY).readOnly).toBe(true);
  });

  it('names the other user holding the lock', () => {
    const theirs = { [KEY]: { acquired: false, userLock: 'anna' } };
    expect(clusterAccess(editor, 'me', cluster('C1'), theirs, KEY)).toMatchObject({ readOnly: true, reason: 'anna is editing the cluster', lockedBy: 'anna', canPublish: false });
    // The lock header names them to a viewer too (who gets 'Ask to unlock'); our own lock, in any case, is no one else's.
    expect(clusterAccess([grant(['view'])], 'me', cluster('C1'), theirs, KEY).lockedBy).toBe('anna');
    expect(clusterAccess(editor, 'ME', cluster('C1'), held, KEY).lockedBy).toBeNull();
  });

  it('is read-only in a closed release or month, and during a submission', () => {
    expect(clusterAccess(editor, 'me', cluster('C1', [], { releaseClosed: true }), held, KEY).reason).toBe(READ_ONLY_TEXT.releaseClosed);
    expect(clusterAccess(editor, 'me', cluster('C1', [], { inOpenMonth: false }), held, KEY).reason).toBe(READ_ONLY_TEXT.monthClosed);
    expect(clusterAccess(editor, 'me', cluster('C1', [], { status: 'SUBMIT_IN_PROGRESS' }), held, KEY).reason).toBe(READ_ONLY_TEXT.submitInProgress);
  });

  it('waits for the lock answer, and is read-only when the lock was not acquired', () => {
    expect(clusterAccess(editor, 'me', cluster('C1'), null, KEY).reason).toBe(READ_ONLY_TEXT.locking);
    expect(clusterAccess(editor, 'me', cluster('C1'), {}, KEY).reason).toBe(READ_ONLY_TEXT.notLocked);
  });
});
