import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUR_EU, buildModule } from '../../../test/builders.js';
import { buildAdminApp, type AdminApp, type AdminCall } from '../../../test/admin-app.js';
import type { TestUsers } from '../../../test/test-app.js';
import { auditLog, months, releases } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { role: 'EDITOR', grants: { view: AUR_EU, edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
} as const satisfies TestUsers;

let { app, as, call, forbiddenToAll } = {} as AdminApp<keyof typeof USERS>;

beforeEach(async () => {
  ({ app, as, call, forbiddenToAll } = await buildAdminApp(USERS));
  const db = app.database.db;
  // An older, closed release with one month, besides the reference world's open R2027.
  await db.insert(releases).values({ releaseId: 'R2026', status: 'CLOSED', creationDate: new Date('2025-06-01T08:00:00Z') });
  await db.insert(months).values({ monthId: 'M11_2026', year: 2026, month: 11, open: false, releaseId: 'R2026' });
});
afterEach(async () => {
  await app.close();
});

const list = async () => (await call('GET', '/api/release/all')).json();
const close = (releaseId: string) => call('POST', '/api/release/changeStatus', { releaseId, action: 'close' });
const reopen = (releaseId: string) => call('POST', '/api/release/changeStatus', { releaseId, action: 're-open' });
const auditOf = async (action: string) => app.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('GET /api/release/all', () => {
  it('lists the releases sorted by releaseId, each with its months in calendar order', async () => {
    const res = await call('GET', '/api/release/all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        releaseId: 'R2026',
        creationDate: '2025-06-01T08:00:00.000Z',
        status: 'CLOSED',
        foVisibility: 'UNPUBLISHED',
        foPublicationDate: null,
        viewerVisibility: 'UNPUBLISHED',
        viewerPublicationDate: null,
        months: [{ monthId: 'M11_2026', open: false }],
      },
      expect.objectContaining({
        releaseId: 'R2027',
        status: 'OPEN',
        months: [
          { monthId: 'M12_2026', open: false },
          { monthId: 'M01_2027', open: true },
          { monthId: 'M02_2027', open: true },
          { monthId: 'M10_2027', open: true },
        ],
      }),
    ]);
  });
});

describe('POST /api/release/changeStatus', () => {
  it('closes a release with all its months, and re-opens them with it', async () => {
    const closed = await close('R2027');
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ releaseId: 'R2027', status: 'CLOSED' });
    expect(closed.json().months.every((m: { open: boolean }) => !m.open)).toBe(true);
    const monthsAfter = (await call('GET', '/api/month/all')).json();
    expect(monthsAfter.filter((m: { open: boolean }) => m.open)).toEqual([]);

    const opened = await reopen('R2027');
    expect(opened.json()).toMatchObject({ status: 'OPEN' });
    expect(opened.json().months.map((m: { open: boolean }) => m.open)).toEqual([true, true, true, true]);
    const entries = await auditOf('release-status');
    expect(entries.map((e) => e.summary)).toEqual([
      { from: 'OPEN', to: 'CLOSED', months: ['M12_2026', 'M01_2027', 'M02_2027', 'M10_2027'] },
      { from: 'CLOSED', to: 'OPEN', months: ['M12_2026', 'M01_2027', 'M02_2027', 'M10_2027'] },
    ]);
  });

  it('makes the items of a closed release read-only for everyone, admins included', async () => {
    await buildModule(app.database.db, { moduleName: 'AUR_SUN_PIL_01' });
    const key = { moduleName: 'AUR_SUN_PIL_01', monthId: 'M01_2027' };
    for (const name of ['editor', 'admin'] as const) {
      const headers = await as(name);
      expect((await call('POST', '/api/module/lock', [key], headers)).json()[0].acquired).toBe(true);
      await close('R2027');
      const [dto] = (await call('POST', '/api/module/details', [key], headers)).json();
      expect(dto.releaseClosed).toBe(true);
      const save = await call('POST', '/api/module/save', key, headers);
      expect(save.statusCode).toBe(422);
      expect(save.json().error).toBe('releaseClosed');

      await reopen('R2027');
      expect((await call('POST', '/api/module/details', [key], headers)).json()[0].releaseClosed).toBe(false);
      expect((await call('POST', '/api/module/save', key, headers)).statusCode).toBe(200);
      await call('POST', '/api/module/unlock', [key], headers);
    }
  });

  it('refuses to re-open a release while another one is open, and repeated actions', async () => {
    const other = await reopen('R2026');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: 'releaseOpen', message: 'The release R2027 is open: close it before re-opening another one.' });
    expect((await reopen('R2027')).json().error).toBe('releaseAlreadyOpen');
    expect((await close('R2026')).json()).toEqual({ error: 'releaseAlreadyClosed', message: 'The release R2026 is already closed.' });
    await close('R2027');
    expect((await reopen('R2026')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown release and 400 for a bad action', async () => {
    expect((await close('R1999')).json()).toEqual({ error: 'releaseNotFound', message: 'The release R1999 does not exist.' });
    expect((await call('POST', '/api/release/changeStatus', { releaseId: 'R2027', action: 'open' })).statusCode).toBe(400);
  });
});

describe('POST /api/release/createNew', () => {
  it('is refused while a release is open', async () => {
    const res = await call('POST', '/api/release/createNew', { releaseId: 'R2028' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'releaseOpen', message: 'A release is open: close it before creating a new one.' });
  });

  it('creates an open release with the 12 months after the last release month', async () => {
    await close('R2027');
    const res = await call('POST', '/api/release/createNew', { releaseId: 'R2028' });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ releaseId: 'R2028', status: 'OPEN', foVisibility: 'UNPUBLISHED', viewerVisibility: 'UNPUBLISHED' });
    expect(Date.now() - Date.parse(created.creationDate)).toBeLessThan(60_000);
    expect(created.months.map((m: { monthId: string }) => m.monthId)).toEqual([
      'M11_2027', 'M12_2027', 'M01_2028', 'M02_2028', 'M03_2028', 'M04_2028',
      'M05_2028', 'M06_2028', 'M07_2028', 'M08_2028', 'M09_2028', 'M10_2028',
    ]);
    expect(created.months.every((m: { open: boolean }) => m.open)).toBe(true);
    const open = (await call('GET', '/api/month/all')).json().filter((m: { open: boolean }) => m.open);
    expect(open).toHaveLength(12);
    expect((await list()).map((r: { releaseId: string }) => r.releaseId)).toEqual(['R2026', 'R2027', 'R2028']);
    expect((await auditOf('release-create'))[0]).toMatchObject({ itemKey: 'R2028', username: 'admin' });
  });

  it('takes over existing months without a release', async () => {
    await app.database.db.insert(months).values({ monthId: 'M11_2027', year: 2027, month: 11, open: false });
    await close('R2027');
    const created = (await call('POST', '/api/release/createNew', { releaseId: 'R2028' })).json();
    expect(created.months[0]).toEqual({ monthId: 'M11_2027', open: true });
  });

  it('refuses an existing id and a malformed one', async () => {
    await close('R2027');
    const dup = await call('POST', '/api/release/createNew', { releaseId: 'R2026' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'releaseExists', message: 'The release R2026 already exists.' });
    for (const releaseId of ['', 'R 2028', 'R2028!', 'X'.repeat(21)]) {
      expect((await call('POST', '/api/release/createNew', { releaseId })).statusCode, releaseId).toBe(400);
    }
  });

  it('lets only one of two simultaneous creations through', async () => {
    await close('R2027');
    const answers = await Promise.all([
      call('POST', '/api/release/createNew', { releaseId: 'R2028' }),
      call('POST', '/api/release/createNew', { releaseId: 'R2029' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await list()).filter((r: { status: string }) => r.status === 'OPEN')).toHaveLength(1);
  });
});

describe('POST /api/release/publish and /publishViewer', () => {
  it('publishes to the front office once, with the date', async () => {
    const res = await call('POST', '/api/release/publish', { releaseId: 'R2027' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ foVisibility: 'PUBLISHED', viewerVisibility: 'UNPUBLISHED', viewerPublicationDate: null });
    expect(Date.now() - Date.parse(res.json().foPublicationDate)).toBeLessThan(60_000);
    const again = await call('POST', '/api/release/publish', { releaseId: 'R2027' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'releaseAlreadyPublished', message: 'The release is already published to the front office.' });
  });

  it('publishes to viewers once, separately', async () => {
    const res = await call('POST', '/api/release/publishViewer', { releaseId: 'R2026' });
    expect(res.json()).toMatchObject({ releaseId: 'R2026', viewerVisibility: 'PUBLISHED', foVisibility: 'UNPUBLISHED' });
    expect((await call('POST', '/api/release/publishViewer', { releaseId: 'R2026' })).json().message).toBe('The release is already published to viewers.');
    expect((await auditOf('release-publish')).map((e) => e.summary)).toEqual([{ target: 'viewer' }]);
  });

  it('answers 404 for an unknown release', async () => {
    expect((await call('POST', '/api/release/publish', { releaseId: 'R1999' })).statusCode).toBe(404);
    expect((await call('POST', '/api/release/publishViewer', { releaseId: 'R1999' })).statusCode).toBe(404);
  });
});

describe('access', () => {
  const calls: AdminCall[] = [
    ['GET', '/api/release/all'],
    ['POST', '/api/release/createNew', { releaseId: 'R2030' }],
    ['POST', '/api/release/changeStatus', { releaseId: 'R2027', action: 'close' }],
    ['POST', '/api/release/publish', { releaseId: 'R2027' }],
    ['POST', '/api/release/publishViewer', { releaseId: 'R2027' }],
  ];

  it('answers 403 to every non-admin, changing nothing', async () => {
    await forbiddenToAll(['editor', 'viewer'], calls);
    expect((await list()).map((r: { status: string; foVisibility: string }) => `${r.status}/${r.foVisibility}`)).toEqual(['CLOSED/UNPUBLISHED', 'OPEN/UNPUBLISHED']);
  });

  it('answers 401 without a token (the list included)', async () => {
    for (const [method, url, payload] of calls) {
      expect((await app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) })).statusCode, url).toBe(401);
    }
  });
});
