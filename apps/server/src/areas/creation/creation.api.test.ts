import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { AUR_EU, buildCluster, buildFamily, buildModule, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { auditLog, clusters, clusterStores, lias, macroFamilies, modules, moduleStarsZones, planningChannels } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  creator: { role: 'CREATOR', grants: { view: AUR_EU, edit: { ...AUR_EU, rules: ['create'] } } },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  nacreator: { grants: { edit: { brands: ['AUR'], zones: ['NA'], rules: ['create'] } } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
let stores: Record<'it' | 'fr' | 'us', Awaited<ReturnType<typeof buildStore>>>;
const db = () => app.database.db;

const SPACE = "Attention! You can't add a space!";
const SPECIAL = "Attention! You can't use special characters!";
const NEGATIVE = "Attention! You can't write a negative length!";

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
  await buildFamily(db(), 'PILOT');
  await db().insert(planningChannels).values({ planningChannelId: 'WHOLESALE', label: 'Wholesale' });
  await db().insert(lias).values({ liaCode: 'WHS_STANDARD', planningChannelId: 'WHOLESALE' });
  stores = { it: await buildStore(db(), 'IT'), fr: await buildStore(db(), 'FR'), us: await buildStore(db(), 'US') };
  await buildModule(db(), { moduleName: 'AUR_SUN_PILOT_01', monthId: 'M02_2027' });
  await db().update(modules).set({ moduleLabel: 'Aurora Sun Pilot 01' }).where(eq(modules.moduleName, 'AUR_SUN_PILOT_01'));
});
afterEach(async () => {
  await app.close();
});

const post = async (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: await as(user), payload: payload as object });
const newModule = (over: object = {}) => ({
  moduleName: 'AUR_SUN_PILOT_99',
  moduleLabel: 'Aurora Sun Pilot 99',
  moduleDescription: 'A new pilot module',
  monthId: 'M01_2027',
  macroFamily: 'PILOT',
  brand: 'AUR',
  collection: 'SUN',
  starZones: ['EU'],
  initialSize: 12,
  ...over,
});
const messageOf = async (url: string, user: User, payload: unknown) => {
  const res = await post(url, user, payload);
  return { status: res.statusCode, ...(res.json() as { error: string; message: string }) };
};

describe('module name, label, description and size rules (server side)', () => {
  const check = (over: object) => messageOf('/api/module/checkIfExists/', 'creator', newModule(over));

  it('passes a good module', async () => {
    const res = await post('/api/module/checkIfExists/', 'creator', newModule());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ description: 'OK' });
    expect((await post('/api/module/checkIfExists', 'creator', newModule())).statusCode).toBe(200);
  });

  it('refuses spaces and special characters in names, with the spec texts', async () => {
    expect(await check({ moduleName: 'AUR SUN' })).toMatchObject({ status: 400, error: 'invalidModule', message: SPACE });
    for (const bad of ['AUR#1', 'A!', 'A@', 'A$', 'A%', 'A^', 'A&', 'A*', 'A(', 'A)', 'A+', 'A-B', 'A=', 'A[', 'A]', 'A{', 'A}', 'A;', "A'", 'A:', 'A"', 'A\\', 'A|', 'A,', 'A<', 'A>', 'A/', 'A?', 'A~', 'A...B']) {
      expect(await check({ moduleName: bad }), bad).toMatchObject({ status: 400, message: SPECIAL });
    }
    expect((await check({ moduleName: 'A..B_C' })).status).toBe(200); // two dots are fine
  });

  it('limits name 24, label 40, description 100; labels may hold spaces but no special characters', async () => {
    expect(await check({ moduleName: 'N'.repeat(25) })).toMatchObject({ status: 400, message: 'The module name can have at most 24 characters' });
    expect((await check({ moduleName: 'N'.repeat(24) })).status).toBe(200);
    expect(await check({ moduleLabel: 'L'.repeat(41) })).toMatchObject({ status: 400, message: 'The module label can have at most 40 characters' });
    expect(await check({ moduleLabel: 'Sun & sea' })).toMatchObject({ status: 400, message: SPECIAL });
    expect((await check({ moduleLabel: 'Sun and sea 2027' })).status).toBe(200);
    expect(await check({ moduleDescription: 'D'.repeat(101) })).toMatchObject({ status: 400, message: 'The description can have at most 100 characters' });
    expect(await check({ moduleName: '', moduleLabel: '' })).toMatchObject({ status: 400, message: 'Insert the module name;Insert the module label' });
    expect(await check({ moduleName: 'A B', moduleLabel: 'x!' })).toMatchObject({ status: 400, message: `${SPACE};${SPECIAL}` });
  });

  it('refuses a negative or fractional initial size, and missing choices, on save', async () => {
    expect(await messageOf('/api/module/create', 'creator', newModule({ initialSize: -1 }))).toMatchObject({ status: 400, message: NEGATIVE });
    expect(await messageOf('/api/module/create', 'creator', newModule({ initialSize: 2.5 }))).toMatchObject({ status: 400, message: 'The initial size must be a whole number' });
    expect(await messageOf('/api/module/create', 'creator', newModule({ starZones: [] }))).toMatchObject({ status: 400, message: 'Choose at least one Stars Zone' });
    expect(await messageOf('/api/module/create', 'creator', newModule({ macroFamily: '', brand: undefined, collection: '' }))).toMatchObject({
      status: 400,
      message: 'Choose a macro family;Choose a brand;Choose a collection',
    });
    expect(await messageOf('/api/module/create', 'creator', newModule({ macroFamily: 'NOPE', starZones: ['EU', 'XX'] }))).toMatchObject({
      status: 400,
      message: 'Unknown macro family: NOPE;Unknown stars zones: XX',
    });
    expect(await db().select().from(modules).where(eq(modules.moduleName, 'AUR_SUN_PILOT_99'))).toEqual([]);
  });
});

describe('module existence check and creation', () => {
  it('answers 409 with the reasons when the name exists in any month or the label in the month', async () => {
    expect(await messageOf('/api/module/checkIfExists/', 'creator', newModule({ moduleName: 'aur_sun_pilot_01' }))).toEqual({
      status: 409,
      error: 'moduleAlreadyExists',
      message: 'The module name AUR_SUN_PILOT_01 already exists in M02_2027.',
    });
    expect(await messageOf('/api/module/checkIfExists/', 'creator', newModule({ monthId: 'M02_2027', moduleLabel: 'AURORA SUN PILOT 01' }))).toMatchObject({
      status: 409,
      message: 'The module label AURORA SUN PILOT 01 is already used by the module AUR_SUN_PILOT_01 in M02_2027.',
    });
    const both = await messageOf('/api/module/checkIfExists/', 'creator', newModule({ moduleName: 'AUR_SUN_PILOT_01', monthId: 'M02_2027', moduleLabel: 'Aurora Sun Pilot 01' }));
    expect(both.message.split(';')).toHaveLength(2);
  });

  it('creates a WIP module without SKUs, keeps the initial size and audits it', async () => {
    const res = await post('/api/module/create', 'creator', newModule({ starZones: ['EU', 'NA'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      moduleName: 'AUR_SUN_PILOT_99',
      moduleLabel: 'Aurora Sun Pilot 99',
      moduleDescription: 'A new pilot module',
      monthId: 'M01_2027',
      macroFamily: 'PILOT',
      brand: 'AUR',
      collection: 'SUN',
      starZones: ['EU', 'NA'],
      status: 'WIP',
      productDtoList: [],
      initialSize: 12,
      newModule: true,
      locked: false,
      legoMonth: true,
    });
    const [row] = await db().select().from(modules).where(eq(modules.moduleName, 'AUR_SUN_PILOT_99'));
    expect(row).toMatchObject({ createdBy: 'creator', status: 'WIP', createdAfterDelete: false });
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'create'), eq(auditLog.itemKey, 'AUR_SUN_PILOT_99')));
    expect(entry).toMatchObject({ username: 'creator', itemType: 'module', monthId: 'M01_2027' });
    // The same module cannot be created twice.
    expect(await messageOf('/api/module/create', 'admin', newModule({ monthId: 'M10_2027' }))).toMatchObject({ status: 409, error: 'moduleAlreadyExists' });
  });

  it('saves without the initial size when the browser leaves it out', async () => {
    const { initialSize: _dropped, ...withoutSize } = newModule();
    const res = await post('/api/module/create', 'creator', withoutSize);
    expect(res.statusCode).toBe(200);
    expect(res.json().initialSize).toBeNull();
  });

  it('needs the create right for the brand and one of the zones', async () => {
    expect(await messageOf('/api/module/create', 'editor', newModule())).toMatchObject({ status: 403, message: "You don't have the right to create for this brand and stars zone." });
    expect((await post('/api/module/create', 'viewer', newModule())).statusCode).toBe(403);
    expect((await post('/api/module/create', 'nacreator', newModule())).statusCode).toBe(403);
    expect((await post('/api/module/create', 'nacreator', newModule({ starZones: ['NA'] }))).statusCode).toBe(200);
    expect((await post('/api/module/create', 'creator', newModule({ brand: 'VLT', moduleName: 'VLT_X' }))).statusCode).toBe(403);
  });

  it('creates only in open months of open releases', async () => {
    expect(await messageOf('/api/module/create', 'admin', newModule({ monthId: 'M12_2026' }))).toMatchObject({ status: 422, error: 'monthClosed' });
    expect(await messageOf('/api/module/create', 'admin', newModule({ monthId: 'M05_2030' }))).toMatchObject({ status: 404, error: 'monthNotFound' });
  });

  it('creates a module again where its deleted row was, marked created after delete', async () => {
    const old = await buildModule(db(), { moduleName: 'GONE', monthId: 'M01_2027' });
    await db().update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.id, old.id));
    const res = await post('/api/module/create', 'creator', newModule({ moduleName: 'GONE', moduleLabel: 'Gone again' }));
    expect(res.statusCode).toBe(200);
    const rows = await db().select().from(modules).where(eq(modules.moduleName, 'GONE'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ deletionStatus: null, createdAfterDelete: true, moduleLabel: 'Gone again' });
    expect(await db().select().from(moduleStarsZones).where(eq(moduleStarsZones.moduleId, rows[0]!.id))).toHaveLength(1);
  });
});

describe('macro families', () => {
  it('creates a family (trimmed), refuses duplicates case-insensitively, lists special families first', async () => {
    await buildFamily(db(), 'BEST SELLERS', 'BEST_SELLER');
    const res = await post('/api/module/macroFamily/create', 'creator', { macroFamily: '  AVIATOR  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ macroFamily: 'AVIATOR', specialKind: null });
    expect(await messageOf('/api/module/macroFamily/create', 'admin', { macroFamily: 'aviator' })).toMatchObject({
      status: 409,
      error: 'macroFamilyAlreadyExists',
      message: 'The macro family AVIATOR already exists.',
    });
    const list = await app.inject({ method: 'GET', url: '/api/module/macroFamily/all', headers: await as('viewer') });
    expect(list.json().map((f: { macroFamily: string }) => f.macroFamily)).toEqual(['BEST SELLERS', 'AVIATOR', 'PILOT']);
    expect(await db().select().from(auditLog).where(eq(auditLog.itemType, 'macroFamily'))).toHaveLength(1);
  });

  it('requires a name of at most 100 characters and the create right', async () => {
    expect(await messageOf('/api/module/macroFamily/create', 'creator', { macroFamily: '  ' })).toMatchObject({ status: 400, message: 'Insert the macro family name' });
    expect(await messageOf('/api/module/macroFamily/create', 'creator', {})).toMatchObject({ status: 400, message: 'Insert the macro family name' });
    expect(await messageOf('/api/module/macroFamily/create', 'creator', { macroFamily: 'F'.repeat(101) })).toMatchObject({
      status: 400,
      message: 'The macro family name can have at most 100 characters',
    });
    expect((await post('/api/module/macroFamily/create', 'creator', { macroFamily: 'F'.repeat(100) })).statusCode).toBe(200);
    expect((await post('/api/module/macroFamily/create', 'editor', { macroFamily: 'NOPE' })).statusCode).toBe(403);
    expect(await db().select().from(macroFamilies).where(eq(macroFamilies.macroFamily, 'NOPE'))).toEqual([]);
  });
});

describe('clusters', () => {
  const newCluster = (over: object = {}) => ({
    clusterId: 'AUR_SUN_IT_01',
    clusterLabel: 'Aurora Sun Italy 01',
    clusterDescription: 'Italian doors',
    monthId: 'M01_2027',
    brandCode: 'AUR',
    collection: 'SUN',
    lias: ['LIA01'],
    starZones: ['EU'],
    stores: [{ codiceStoreSap: stores.it.codiceStoreSap, storeId: stores.it.storeJda, starsCustomer: stores.it.starsCustomer, customerSegmentation: ['GOLD'] }],
    ...over,
  });
  const create = (user: User, ...list: object[]) => post('/api/cluster/massiveCreation/', user, list);

  it('checks names and labels with the spec rules and existing clusters', async () => {
    expect((await post('/api/cluster/checkIfExists/', 'creator', newCluster())).json()).toEqual({ description: 'OK' });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster({ clusterId: 'AUR SUN' }))).toMatchObject({ status: 400, message: SPACE });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster({ clusterId: 'AUR-SUN' }))).toMatchObject({ status: 400, message: SPECIAL });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster({ clusterId: 'C'.repeat(21) }))).toMatchObject({
      status: 400,
      message: 'The cluster id can have at most 20 characters',
    });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster({ clusterLabel: 'L'.repeat(41) }))).toMatchObject({
      status: 400,
      message: 'The cluster label can have at most 40 characters',
    });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster({ clusterLabel: 'Italy?' }))).toMatchObject({ status: 400, message: SPECIAL });
    await buildCluster(db(), { clusterId: 'AUR_SUN_IT_01', monthId: 'M02_2027' });
    expect(await messageOf('/api/cluster/checkIfExists/', 'creator', newCluster())).toEqual({
      status: 409,
      error: 'clusterAlreadyExists',
      message: 'The cluster id AUR_SUN_IT_01 already exists in M02_2027.',
    });
  });

  it('creates a WIP cluster with its stores, countries, zones and LIAs, audited', async () => {
    const res = await create('creator', newCluster({ stores: [...newCluster().stores, { codiceStoreSap: stores.fr.codiceStoreSap, starsCustomer: stores.fr.starsCustomer, customerSegmentation: 'GOLD' }] }));
    expect(res.statusCode).toBe(200);
    const [dto] = res.json();
    expect(dto).toMatchObject({
      clusterId: 'AUR_SUN_IT_01',
      clusterLabel: 'Aurora Sun Italy 01',
      clusterDescription: 'Italian doors',
      monthId: 'M01_2027',
      brandCode: 'AUR',
      collection: 'SUN',
      country: ['FR', 'IT'],
      starZones: ['EU'],
      status: 'WIP',
      door: 2,
      modules: [],
    });
    expect(dto.lias).toEqual([expect.objectContaining({ liaCode: 'LIA01', isChecked: true })]);
    const [row] = await db().select().from(clusters).where(eq(clusters.clusterId, 'AUR_SUN_IT_01'));
    expect(row).toMatchObject({ releaseId: 'R2027', planningChannelId: 'RETAIL', createdBy: 'creator' });
    expect(await db().select().from(clusterStores).where(eq(clusterStores.clusterPk, row!.id))).toHaveLength(2);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.itemType, 'cluster'), eq(auditLog.action, 'create')))).toHaveLength(1);
    expect(await messageOf('/api/cluster/massiveCreation/', 'admin', [newCluster({ monthId: 'M02_2027' })])).toMatchObject({ status: 409, error: 'clusterAlreadyExists' });
  });

  it('refuses clusters without LIAs, zones or stores, with unknown or mismatched stores, and names the reasons', async () => {
    expect(await messageOf('/api/cluster/massiveCreation/', 'creator', [newCluster({ lias: [] })])).toMatchObject({ status: 400, message: 'At least one lia must be selected' });
    expect(await messageOf('/api/cluster/massiveCreation/', 'creator', [newCluster({ lias: [{ liaCode: 'LIA01', isChecked: false }] })])).toMatchObject({
      status: 400,
      message: 'At least one lia must be selected',
    });
    expect(await messageOf('/api/cluster/massiveCreation/', 'creator', [newCluster({ stores: [], starZones: [] })])).toMatchObject({
      status: 400,
      message: 'Choose at least one Stars Zone;Add at least one store',
    });
    const sap = stores.it.codiceStoreSap;
    expect(
      await messageOf('/api/cluster/massiveCreation/', 'creator', [
        newCluster({
          stores: [
            { codiceStoreSap: 'NOPE', starsCustomer: 'X', customerSegmentation: ['GOLD'] },
            { codiceStoreSap: sap, starsCustomer: 'SOMEONE', customerSegmentation: ['SILVER'] },
            { codiceStoreSap: stores.us.codiceStoreSap, starsCustomer: stores.us.starsCustomer, customerSegmentation: ['GOLD'] },
          ],
        }),
      ]),
    ).toMatchObject({
      status: 400,
      error: 'invalidCluster',
      message: [
        'No store has the SAP code NOPE.',
        `The store ${sap} belongs to the Stars customer ${stores.it.starsCustomer}.`,
        `The store ${sap} has the segment GOLD.`,
        `The store ${stores.us.codiceStoreSap} is in the stars zone NA, which is not one of the cluster's stars zones.`,
      ].join(';'),
    });
    expect(await messageOf('/api/cluster/massiveCreation/', 'creator', [newCluster({ stores: [{ codiceStoreSap: sap, starsCustomer: stores.it.starsCustomer, customerSegmentation: [] }] })])).toMatchObject({
      status: 400,
      message: 'Choose the segment',
    });
    expect(await db().select().from(clusters)).toEqual([]);
  });

  it('needs the create right for the brand and the zones of its stores', async () => {
    expect((await create('editor', newCluster())).statusCode).toBe(403);
    expect((await create('nacreator', newCluster())).statusCode).toBe(403);
    const us = newCluster({ starZones: ['NA'], stores: [{ codiceStoreSap: stores.us.codiceStoreSap, starsCustomer: stores.us.starsCustomer, customerSegmentation: ['GOLD'] }] });
    expect((await create('nacreator', us)).statusCode).toBe(200);
  });

  it('creates all the clusters of a list or none', async () => {
    const res = await create('creator', newCluster(), newCluster({ clusterId: 'AUR_SUN_IT_02', clusterLabel: 'Second', lias: ['NOPE'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('AUR_SUN_IT_02: Unknown LIAs: NOPE');
    expect(await db().select().from(clusters)).toEqual([]);
    expect((await create('creator', newCluster(), newCluster({ clusterLabel: 'Twice' }))).json().message).toContain('The cluster id AUR_SUN_IT_01 is given twice.');
  });

  it('generates a free cluster name of at most 20 characters without special characters', async () => {
    const name = (body: object) => post('/api/cluster/getGenericName', 'creator', body);
    const base = { releaseId: 'R2027', planningChannel: 'RETAIL', collection: 'SUN', brand: 'AUR', country: 'IT' };
    expect((await name(base)).json()).toEqual({ clusterId: 'AUR_SUN_RET_IT_01' });
    await buildCluster(db(), { clusterId: 'AUR_SUN_RET_IT_01' });
    await buildCluster(db(), { clusterId: 'AUR_SUN_RET_IT_07', monthId: 'M02_2027' });
    expect((await name(base)).json()).toEqual({ clusterId: 'AUR_SUN_RET_IT_08' });
    expect((await name({ ...base, country: ['IT', 'FR'] })).json()).toEqual({ clusterId: 'AUR_SUN_RET_EU_01' });
    expect((await name({ ...base, country: ['IT', 'US'], planningChannel: null, collection: 'OPTICAL' })).json()).toEqual({ clusterId: 'AUR_OPT_MIX_01' });
    const generated = (await name({ ...base, country: [] })).json().clusterId as string;
    expect(generated.length).toBeLessThanOrEqual(20);
    expect(generated).toMatch(/^[A-Z0-9_]+$/);
    expect((await name({ ...base, country: 'XX', releaseId: 'R1999' })).json().message).toBe('The release R1999 does not exist.;Unknown countries: XX');
  });

  it('looks a store up by SAP code', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/store/bySap/${stores.us.codiceStoreSap}`, headers: await as('creator') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      storeJda: stores.us.storeJda,
      codiceStoreSap: stores.us.codiceStoreSap,
      name: stores.us.name,
      starsCustomer: stores.us.starsCustomer,
      starsCustomerName: expect.any(String),
      customerSegmentation: 'GOLD',
      countryCode: 'US',
      starsZone: 'NA',
      planningChannelId: 'RETAIL',
    });
    const missing = await app.inject({ method: 'GET', url: '/api/store/bySap/S000', headers: await as('creator') });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'storeNotFound', message: 'No store has the SAP code S000.' });
  });
});

