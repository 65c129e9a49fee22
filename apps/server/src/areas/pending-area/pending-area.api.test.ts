import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PENDING_PAGE_SIZE, PENDING_SUBMIT_STUCK_MINUTES, PENDING_TEXTS } from '@bo/shared/pending-area';
import { BELL_USERS, useAreaApp } from '../../../test/area-test-app.js';
import { buildCluster, buildFamily, buildModule } from '../../../test/builders.js';
import { clusters, locks, modules } from '../../db/schema.js';

const USERS = BELL_USERS;
type User = keyof typeof USERS;

const { start, app, db, as } = useAreaApp(USERS);

const post = async (url: string, user: User, payload: unknown) => app().inject({ method: 'POST', url, headers: await as(user), payload: payload as object });
const list = async (view: 'module' | 'cluster', user: User, body: object) => {
  const res = await post(`/api/${view}/pendingArea`, user, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const names = (page: { modulePendingAreaDtoList?: { moduleName: string }[]; clusterPendingAreaDtoList?: { clusterId: string }[] }) =>
  (page.modulePendingAreaDtoList?.map((r) => r.moduleName) ?? page.clusterPendingAreaDtoList?.map((r) => r.clusterId) ?? []).sort();
const ALL_STATUSES = { status: ['WIP', 'SUBMIT_IN_PROGRESS'] };

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
async function setModule(id: number, set: Partial<typeof modules.$inferInsert>) {
  await db().update(modules).set(set).where(eq(modules.id, id));
}
const ERR = 'Price missing;Door count below minimum';

/** Every kind of item the definition must tell apart. */
async function buildWorld() {
  await setModule((await buildModule(db(), { moduleName: 'WIP_ERR' })).id, { rpasErrors: ERR });
  await buildModule(db(), { moduleName: 'WIP_PLAIN' });
  await setModule((await buildModule(db(), { moduleName: 'WIP_EMPTY' })).id, { rpasErrors: '' });
  await setModule((await buildModule(db(), { moduleName: 'SUBMITTED_ERR', status: 'SUBMITTED' })).id, { rpasErrors: ERR });
  await setModule((await buildModule(db(), { moduleName: 'STUCK', status: 'SUBMIT_IN_PROGRESS', collection: 'OPTICAL', monthId: 'M02_2027' })).id, {
    updatedAt: minutesAgo(PENDING_SUBMIT_STUCK_MINUTES + 1),
  });
  await setModule((await buildModule(db(), { moduleName: 'SENDING', status: 'SUBMIT_IN_PROGRESS' })).id, {
    updatedAt: minutesAgo(PENDING_SUBMIT_STUCK_MINUTES - 1),
  });
  await setModule((await buildModule(db(), { moduleName: 'CLOSED_MONTH', monthId: 'M12_2026' })).id, { rpasErrors: ERR });
  await setModule((await buildModule(db(), { moduleName: 'DELETED' })).id, { rpasErrors: ERR, deletionStatus: 'DELETION_PENDING' });
  await setModule((await buildModule(db(), { moduleName: 'VLT_ERR', brandCode: 'VLT' })).id, { rpasErrors: ERR });
  const cl = await buildCluster(db(), { clusterId: 'CL_ERR' });
  await db().update(clusters).set({ rpasErrors: ERR }).where(eq(clusters.id, cl.id));
  const us = await buildCluster(db(), { clusterId: 'CL_US', countries: ['US'], zones: ['NA'], status: 'SUBMIT_IN_PROGRESS' });
  await db().update(clusters).set({ updatedAt: minutesAgo(PENDING_SUBMIT_STUCK_MINUTES * 3) }).where(eq(clusters.id, us.id));
  await buildCluster(db(), { clusterId: 'CL_PLAIN' });
}

describe('the pending definition', () => {
  it('lists WIP items (with or without warnings) and stuck submissions the caller may edit, and the bell counts exactly them', async () => {
    await start();
    await buildWorld();
    expect(names(await list('module', 'admin', ALL_STATUSES))).toEqual(['STUCK', 'VLT_ERR', 'WIP_EMPTY', 'WIP_ERR', 'WIP_PLAIN']);
    expect(names(await list('cluster', 'admin', ALL_STATUSES))).toEqual(['CL_ERR', 'CL_PLAIN', 'CL_US']);
    expect(names(await list('module', 'editor', ALL_STATUSES))).toEqual(['STUCK', 'WIP_EMPTY', 'WIP_ERR', 'WIP_PLAIN']);
    expect(names(await list('cluster', 'editor', ALL_STATUSES))).toEqual(['CL_ERR', 'CL_PLAIN']);
    expect(names(await list('module', 'vlt', ALL_STATUSES))).toEqual(['VLT_ERR']);

    for (const user of ['admin', 'editor', 'vlt'] as const) {
      const res = await app().inject({ method: 'GET', url: '/api/module/countPendingAreaAlerts', headers: await as(user) });
      const listed = (await list('module', user, ALL_STATUSES)).count + (await list('cluster', user, ALL_STATUSES)).count;
      expect(res.json(), user).toBe(listed);
    }
    const viewerBell = await app().inject({ method: 'GET', url: '/api/module/countPendingAreaAlerts', headers: await as('viewer') });
    expect(viewerBell.json()).toBe(0);
  });

  it('answers the row fields: commodity, status, LEGO month, lock and warnings', async () => {
    await start();
    await buildWorld();
    await db().insert(locks).values({ itemType: 'module', itemKey: 'WIP_ERR', monthId: 'M01_2027', owner: 'someone' });
    const page = await list('module', 'editor', ALL_STATUSES);
    expect(page.maxResultsForPage).toBe(PENDING_PAGE_SIZE);
    expect(page.modulePendingAreaDtoList).toEqual([
      { moduleName: 'WIP_EMPTY', moduleLabel: 'WIP_EMPTY label', brandCode: 'AUR', commodity: 'SUN', status: 'WIP', monthId: 'M01_2027', legoMonth: true, locked: false, userLock: null, rpasErrors: null },
      { moduleName: 'WIP_ERR', moduleLabel: 'WIP_ERR label', brandCode: 'AUR', commodity: 'SUN', status: 'WIP', monthId: 'M01_2027', legoMonth: true, locked: true, userLock: 'someone', rpasErrors: ERR },
      { moduleName: 'WIP_PLAIN', moduleLabel: 'WIP_PLAIN label', brandCode: 'AUR', commodity: 'SUN', status: 'WIP', monthId: 'M01_2027', legoMonth: true, locked: false, userLock: null, rpasErrors: null },
      { moduleName: 'STUCK', moduleLabel: 'STUCK label', brandCode: 'AUR', commodity: 'OPTICAL', status: 'SUBMIT_IN_PROGRESS', monthId: 'M02_2027', legoMonth: false, locked: false, userLock: null, rpasErrors: null },
    ]);
  });
});

describe('filters', () => {
  it('offers the values found among the pending items and narrows the lists by each filter', async () => {
    await start();
    await buildWorld();
    const res = await post('/api/cluster/pendingAreaInitialFilters', 'admin', { viewType: 'module' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: [{ value: 'SUBMIT_IN_PROGRESS', label: 'SUBMIT_IN_PROGRESS' }, { value: 'WIP', label: 'WIP' }],
      brandCode: [{ value: 'AUR', label: 'Aurora Optics' }, { value: 'VLT', label: 'Velto' }],
      commodity: [{ value: 'OPTICAL', label: 'Optical' }, { value: 'SUN', label: 'Sun' }],
      months: [{ value: 'M01_2027', label: 'M01_2027' }, { value: 'M02_2027', label: 'M02_2027' }],
    });
    const clusterOptions = (await post('/api/cluster/pendingAreaInitialFilters', 'editor', {})).json();
    expect(clusterOptions.status).toEqual([{ value: 'WIP', label: 'WIP' }]);

    expect(names(await list('module', 'admin', { status: ['WIP'] }))).toEqual(['VLT_ERR', 'WIP_EMPTY', 'WIP_ERR', 'WIP_PLAIN']);
    expect(names(await list('module', 'admin', { status: ['SUBMIT_IN_PROGRESS'] }))).toEqual(['STUCK']);
    expect(names(await list('module', 'admin', { brandCode: ['VLT'] }))).toEqual(['VLT_ERR']);
    expect(names(await list('module', 'admin', { commodity: ['OPTICAL'] }))).toEqual(['STUCK']);
    expect(names(await list('module', 'admin', { months: ['M01_2027'] }))).toEqual(['VLT_ERR', 'WIP_EMPTY', 'WIP_ERR', 'WIP_PLAIN']);
    expect(names(await list('module', 'admin', { months: ['M01_2027'], brandCode: ['AUR'] }))).toEqual(['WIP_EMPTY', 'WIP_ERR', 'WIP_PLAIN']);
    expect(names(await list('module', 'admin', { months: ['M12_2026'] }))).toEqual([]);
    expect(names(await list('cluster', 'admin', { status: ['SUBMIT_IN_PROGRESS'] }))).toEqual(['CL_US']);
  });

  it('refuses a search without any filter value, and bad bodies, with 400', async () => {
    await start();
    const none = await post('/api/module/pendingArea', 'admin', { status: [], pageIndex: 0 });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(PENDING_TEXTS.selectFilter);
    for (const body of [{ status: ['SUBMITTED'] }, { months: ['M01_2027'], pageIndex: -1 }, { months: ['M01_2027'], extra: 1 }, { months: 'M01_2027' }]) {
      expect((await post('/api/cluster/pendingArea', 'admin', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/api/cluster/pendingAreaInitialFilters', 'admin', { viewType: 'sku' })).statusCode).toBe(400);
  });
});

describe('paging and limits', () => {
  async function manyPending(n: number) {
    const family = await buildFamily(db());
    await db()
      .insert(modules)
      .values(
        Array.from({ length: n }, (_, i) => ({
          moduleName: `P${String(i).padStart(3, '0')}`,
          moduleLabel: `P${String(i).padStart(3, '0')}`,
          monthId: 'M01_2027',
          macroFamily: family,
          brandCode: 'AUR',
          collection: 'SUN',
          rpasErrors: ERR,
        })),
      );
  }

  it('pages by maxResultsForPage: a full first page, the last page, and an empty page past the end', async () => {
    await start();
    await manyPending(PENDING_PAGE_SIZE + 1);
    const first = await list('module', 'admin', { months: ['M01_2027'] });
    expect(first.count).toBe(PENDING_PAGE_SIZE + 1);
    expect(first.modulePendingAreaDtoList).toHaveLength(PENDING_PAGE_SIZE);
    expect(first.modulePendingAreaDtoList[0].moduleName).toBe('P000');
    const last = await list('module', 'admin', { months: ['M01_2027'], pageIndex: 1 });
    expect(last.modulePendingAreaDtoList.map((r: { moduleName: string }) => r.moduleName)).toEqual([`P0${PENDING_PAGE_SIZE}`]);
    const past = await list('module', 'admin', { months: ['M01_2027'], pageIndex: 2 });
    expect(past).toMatchObject({ count: PENDING_PAGE_SIZE + 1, modulePendingAreaDtoList: [] });
  });

  it('answers 413 past MAX_SEARCH_RESULTS', async () => {
    await start({ MAX_SEARCH_RESULTS: 5 });
    await manyPending(6);
    const res = await post('/api/module/pendingArea', 'admin', { months: ['M01_2027'] });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(PENDING_TEXTS.tooMany);
    expect((await list('module', 'admin', { months: ['M01_2027'], brandCode: ['VLT'] })).count).toBe(0);
  });

  it('refuses the whole area with 403 to a caller without any edit grant', async () => {
    await start();
    await buildWorld();
    for (const [url, body] of [
      ['/api/cluster/pendingAreaInitialFilters', {}],
      ['/api/module/pendingArea', ALL_STATUSES],
      ['/api/cluster/pendingArea', ALL_STATUSES],
    ] as const) {
      const res = await post(url, 'viewer', body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden', message: PENDING_TEXTS.noRight });
    }
  });
});
