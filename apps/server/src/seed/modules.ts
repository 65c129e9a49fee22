/**
 * Modules: per brand and collection a set of module definitions (name, family, zones, lifetime),
 * each living through the months with a slowly drifting SKU composition (carry-over), so that
 * the same module names recur month after month with small differences.
 */
import type * as schema from '../db/schema.js';
import type { BatchWriters } from './batch-writer.js';
import {
  CHANNEL_WEIGHTS,
  COLLECTIONS,
  dateInMonth,
  FIRST_OPEN_INDEX,
  MACRO_FAMILIES,
  MONTH_COUNT,
  ZONE_CODES,
  type Brand,
  type CollectionCode,
  type MacroFamily,
  type MonthRow,
} from './reference-data.js';
import { Rng } from './random.js';
import { dayNumber, type SkuGroup, type SkuInfo } from './skus.js';

export interface ModuleDef {
  name: string;
  label: string;
  description: string;
  family: MacroFamily;
  brand: Brand;
  collection: CollectionCode;
  zones: string[];
  planningChannelId: string;
  /** Month indexes (0 = M01_2026) of the first and last month the module exists in. */
  start: number;
  end: number;
  /** From this month index on the module is DELETION_PENDING; null = not deleted. */
  deleteFrom: number | null;
  size: number;
  door: number;
  /** SKUs of the brand and collection in the order the module takes them. */
  candidates: SkuInfo[];
}

/** What clusters, suggestions and locks need to know of a module in one month. */
export interface ModuleInMonth {
  name: string;
  zoneMask: number;
  deleted: boolean;
}

type ModuleWriters = BatchWriters<Pick<typeof schema, 'modules' | 'moduleStarsZones' | 'moduleSkus'>>;

interface ModulesWritten {
  /** Every SKU that sits in some module, with the zones of its modules (bit i = ZONE_CODES[i]). */
  skuZones: Map<string, number>;
}

export const groupKey = (monthIndex: number, brand: string, collection: string) => `${monthIndex}|${brand}|${collection}`;

export function zoneMaskOf(zones: readonly string[]): number {
  return zones.reduce((mask, z) => mask | (1 << ZONE_CODES.indexOf(z)), 0);
}

const NAME_CHARS = /^[A-Za-z0-9_]{1,24}$/;
const LABEL_CHARS = /^[A-Za-z0-9 ]{1,40}$/;

const DESCRIPTION_OPENERS = ['Core', 'Seasonal', 'Best-selling', 'Essential', 'Fashion-forward', 'Heritage', 'Everyday', 'Statement'];
const ZONE_WORDS: Record<string, string> = {
  EU: 'European',
  NA: 'North American',
  LATAM: 'Latin American',
  APAC: 'Asia Pacific',
  MEA: 'Middle East',
};

export function generateModuleDefs(seed: number, scale: number, groups: readonly SkuGroup[]): ModuleDef[] {
  const defs: ModuleDef[] = [];
  for (const group of groups) {
    const rng = Rng.for(seed, 'module-defs', group.brand.code, group.collection);
    const pools = candidatePools(group.skus);
    const count = Math.max(3, Math.round(rng.int(8, 15) * scale));
    const collection = COLLECTIONS.find((c) => c.code === group.collection)!;
    const regular = MACRO_FAMILIES.filter((f) => f.specialKind === null);
    const special = MACRO_FAMILIES.filter((f) => f.specialKind !== null);
    const perFamily = new Map<string, number>();
    const digits = count > 900 ? 4 : count > 90 ? 3 : 2;
    for (let i = 0; i < count; i++) {
      const family =
        i < special.length ? special[i]! : rng.chance(0.12) ? rng.pick(special) : rng.weighted(regular.map((f) => [f, f.weight] as const));
      const n = (perFamily.get(family.name) ?? 0) + 1;
      perFamily.set(family.name, n);
      const nn = String(n).padStart(digits, '0');
      const name = `${group.brand.code}_${collection.nameToken}_${family.token}_${nn}`;
      const label = `${group.brand.name} ${group.collection === 'SUN' ? 'Sun' : 'Optical'} ${titleCase(family.name)} ${nn}`;
      if (!NAME_CHARS.test(name)) throw new Error(`Bad module name ${name}`);
      if (!LABEL_CHARS.test(label)) throw new Error(`Bad module label ${label}`);

      const zones = ZONE_CODES.filter((z) => rng.chance(z === 'EU' ? 0.85 : z === 'NA' ? 0.65 : 0.35));
      if (zones.length === 0) zones.push(rng.pick(ZONE_CODES));
      const startsLater = rng.chance(0.35);
      const start = startsLater ? rng.int(1, MONTH_COUNT - 3) : 0;
      const end = rng.chance(0.85) ? MONTH_COUNT - 1 : rng.int(Math.min(MONTH_COUNT - 1, start + 3), MONTH_COUNT - 1);
      const pool = group.skus;
      const size = Math.max(Math.min(3, pool.length), Math.min(rng.int(10, 40), Math.floor(pool.length * 0.6)));
      const zoneText = zones
        .slice(0, 3)
        .map((z) => ZONE_WORDS[z])
        .join(', ');
      const description = `${rng.pick(DESCRIPTION_OPENERS)} ${family.name.toLowerCase()} ${collection.code === 'SUN' ? 'sunglasses' : 'optical frames'} for ${zoneText} doors`.slice(0, 100);
      defs.push({
        name,
        label,
        description,
        family,
        brand: group.brand,
        collection: group.collection,
        zones,
        planningChannelId: rng.weighted(CHANNEL_WEIGHTS),
        start,
        end,
        deleteFrom: null,
        size,
        door: rng.int(40, 900),
        candidates: candidateOrder(rng, family, pools, size + 40),
      });
    }
  }
  return defs;
}

/** Marks a few modules that live in open months as deleted from some open month on. */
export function chooseModuleDeletions(seed: number, scale: number, defs: ModuleDef[]): ModuleDef[] {
  const rng = Rng.for(seed, 'module-deletions');
  const eligible = defs.filter((d) => d.end > FIRST_OPEN_INDEX + 1 && d.family.specialKind === null);
  const chosen = rng.sample(eligible, Math.max(2, Math.min(40, Math.round(4 * Math.sqrt(scale)))));
  for (const def of chosen) def.deleteFrom = rng.int(Math.max(def.start, FIRST_OPEN_INDEX + 1), def.end);
  return chosen;
}

interface CandidatePools {
  all: SkuInfo[];
  bestSellers: SkuInfo[];
  newness: SkuInfo[];
  byShape: Map<string, SkuInfo[]>;
}

/** The SKUs each kind of family prefers, sorted out once per brand and collection. */
function candidatePools(pool: readonly SkuInfo[]): CandidatePools {
  const live = pool.filter((s) => !s.row.deleted);
  const byShape = new Map<string, SkuInfo[]>();
  for (const s of live) {
    let list = byShape.get(s.shape);
    if (!list) byShape.set(s.shape, (list = []));
    list.push(s);
  }
  const newFrom = dayNumber('2025-06-01');
  return {
    all: pool.slice(),
    bestSellers: live.filter((s) => s.popularityRank >= 0.7),
    newness: live.filter((s) => s.releaseDay >= newFrom),
    byShape,
  };
}

/**
 * Up to `count` SKUs in the order the module takes them: the family's own kind first (best
 * sellers, recent releases, or the family's frame shape), then any SKU of the brand and collection.
 */
function candidateOrder(rng: Rng, family: MacroFamily, pools: CandidatePools, count: number): SkuInfo[] {
  const preferred =
    family.specialKind === 'BEST_SELLER'
      ? pools.bestSellers
      : family.specialKind === 'NEWNESS'
        ? pools.newness
        : (pools.byShape.get(family.shape ?? '') ?? []);
  const out = rng.sample(preferred, count);
  if (out.length < count) {
    const taken = new Set(out);
    const rest = rng.sample(pools.all, Math.min(pools.all.length, count + out.length)).filter((s) => !taken.has(s));
    out.push(...rest.slice(0, count - out.length));
  }
  return out;
}

interface Member {
  sku: SkuInfo;
  mustHave: boolean;
  minValue: number;
  joined: number;
}

const RPAS_ERRORS = ['Price missing;Door count below minimum', 'Door count below minimum', 'Price missing;SKU disabled in SAP', 'Must have count above maximum'];
const EDITORS = ['creator', 'editor', 'submitter', 'admin'];

/** One month of a module's life: its SKUs and the workflow values drawn for the month. */
interface ModuleMonth {
  /** Month index. */
  m: number;
  /** The SKUs in the module (ADDED or NEW), in position order. Valid until the next month is drawn. */
  members: readonly Member[];
  /** The SKUs that left the module this month (REMOVED). */
  bin: readonly Member[];
  initialSize: number | null;
  door: number;
  submitted: boolean;
  publishDay: number | null;
  rpasError: string | null;
  updateDay: number | null;
  updatedBy: string;
}

/**
 * The life of one module month by month, from its own random stream: the composition drifts (carry-over)
 * and each month draws its workflow values. Replaying it gives the same months, so the showcase plan
 * (showcase.ts) can look at a module's SKUs before the rows are written.
 */
export function* moduleLife(seed: number, months: readonly MonthRow[], def: ModuleDef): Generator<ModuleMonth> {
  const rng = Rng.for(seed, 'module-life', def.name);
  let next = 0;
  const takeCandidate = (present: Set<SkuInfo>): SkuInfo | null => {
    for (let tries = 0; tries < def.candidates.length; tries++) {
      const sku = def.candidates[next % def.candidates.length]!;
      next++;
      if (!present.has(sku)) return sku;
    }
    return null;
  };
  const members: Member[] = [];
  const present = new Set<SkuInfo>();
  for (let k = 0; k < def.size; k++) {
    const sku = takeCandidate(present);
    if (!sku) break;
    present.add(sku);
    members.push({ sku, mustHave: rng.chance(def.family.specialKind === 'BEST_SELLER' ? 0.6 : 0.4), minValue: minValue(rng), joined: def.start });
  }
  let door = def.door;
  const initialSize = rng.chance(0.8) ? members.length : null;

  for (let m = def.start; m <= def.end; m++) {
    const open = months[m]!.open;
    let bin: Member[] = [];
    if (m > def.start) {
      // Carry-over: a few SKUs leave (to the bin), a few arrive, one may switch MH/EL.
      const removals = rng.chance(0.3) ? (rng.chance(0.25) ? 2 : 1) : 0;
      for (let r = 0; r < removals && members.length > 3; r++) {
        const out = members.splice(rng.int(0, members.length - 1), 1)[0]!;
        present.delete(out.sku);
        bin.push(out);
      }
      const additions = rng.chance(0.35) ? rng.int(1, 2) : 0;
      for (let a = 0; a < additions; a++) {
        const sku = takeCandidate(present);
        if (!sku) break;
        present.add(sku);
        members.push({ sku, mustHave: rng.chance(0.35), minValue: minValue(rng), joined: m });
      }
      if (members.length > 0 && rng.chance(0.1)) {
        const flip = members[rng.int(0, members.length - 1)]!;
        flip.mustHave = !flip.mustHave;
      }
      door = Math.max(10, Math.round(door * rng.range(0.96, 1.05)));
    }
    bin = bin.filter((b) => !present.has(b.sku));
    // The draws below keep their historical order (status, publication day, RPAS error, update day, editor).
    const submitted = open ? rng.chance(0.25) : rng.chance(0.88);
    const publishDay = submitted ? rng.int(18, 27) : null;
    const rpasError = !submitted && open && rng.chance(0.08) ? rng.pick(RPAS_ERRORS) : null;
    const updateDay = submitted ? null : rng.int(2, 17);
    const updatedBy = rng.pick(EDITORS);
    yield { m, members, bin, initialSize, door, submitted, publishDay, rpasError, updateDay, updatedBy };
  }
}

/** The status a showcase forces on a module in a month (`${name}|${monthIndex}`), over the drawn one. */
type ModuleStatusOverrides = ReadonlyMap<string, 'SUBMITTED' | 'WIP'>;
export const itemMonthKey = (name: string, monthIndex: number) => `${name}|${monthIndex}`;

/** The modules of each month, as clusters, suggestions and the showcase see them (from the definitions alone). */
export function modulesByMonthGroup(defs: readonly ModuleDef[]): Map<string, ModuleInMonth[]> {
  const byMonthGroup = new Map<string, ModuleInMonth[]>();
  for (const def of defs) {
    const zoneMask = zoneMaskOf(def.zones);
    for (let m = def.start; m <= def.end; m++) {
      const key = groupKey(m, def.brand.code, def.collection);
      let list = byMonthGroup.get(key);
      if (!list) byMonthGroup.set(key, (list = []));
      list.push({ name: def.name, zoneMask, deleted: def.deleteFrom !== null && m >= def.deleteFrom });
    }
  }
  return byMonthGroup;
}

/** Streams every module row of every month, with its zones and SKU composition (bin included). */
export async function writeModules(
  seed: number,
  months: readonly MonthRow[],
  defs: readonly ModuleDef[],
  overrides: ModuleStatusOverrides,
  writers: ModuleWriters,
): Promise<ModulesWritten> {
  const skuZones = new Map<string, number>();
  let id = 0;
  for (const def of defs) {
    const zoneMask = zoneMaskOf(def.zones);
    for (const life of moduleLife(seed, months, def)) {
      const m = life.m;
      const month = months[m]!;
      id++;
      const deleted = def.deleteFrom !== null && m >= def.deleteFrom;
      const forced = overrides.get(itemMonthKey(def.name, m));
      const submitted = forced ? forced === 'SUBMITTED' : life.submitted;
      const created = dateInMonth(months[Math.max(0, m - 2)]!, 2 + (id % 20));
      const previous = months[Math.max(0, m - 1)]!;
      // A forced SUBMITTED without a drawn publication day takes a fixed one (no draw: the stream stays as it was).
      const published = submitted ? dateInMonth(previous, life.publishDay ?? 20 + (id % 8), 14) : null;
      await writers.modules.add({
        id,
        moduleName: def.name,
        monthId: month.monthId,
        moduleLabel: def.label,
        moduleDescription: def.description,
        macroFamily: def.family.name,
        brandCode: def.brand.code,
        collection: def.collection,
        planningChannelId: def.planningChannelId,
        status: submitted ? 'SUBMITTED' : 'WIP',
        newModule: def.family.specialKind === 'NEWNESS' || (def.start > 0 && m - def.start < 3),
        initialSize: life.initialSize,
        door: life.door,
        rpasErrors: submitted ? null : life.rpasError,
        publicationDate: published,
        deletionStatus: deleted ? 'DELETION_PENDING' : null,
        createdAfterDelete: false,
        version: 1,
        createdAt: created,
        createdBy: m === def.start ? 'creator' : 'admin',
        updatedAt: published ?? dateInMonth(previous, life.updateDay ?? 2 + (id % 16), 11),
        updatedBy: life.updatedBy,
      });
      for (const zone of def.zones) await writers.moduleStarsZones.add({ moduleId: id, starsZone: zone });
      let position = 0;
      for (const member of life.members) {
        await writers.moduleSkus.add({
          moduleId: id,
          upc: member.sku.row.upc,
          mustHave: member.mustHave,
          status: member.joined === m && m > def.start ? 'NEW' : 'ADDED',
          previousStatus: null,
          previousMustHave: null,
          minValue: member.minValue,
          position: position++,
        });
        skuZones.set(member.sku.row.upc, (skuZones.get(member.sku.row.upc) ?? 0) | zoneMask);
      }
      for (const gone of life.bin) {
        await writers.moduleSkus.add({
          moduleId: id,
          upc: gone.sku.row.upc,
          mustHave: gone.mustHave,
          status: 'REMOVED',
          previousStatus: gone.joined === m - 1 && m - 1 > def.start ? 'NEW' : 'ADDED',
          previousMustHave: gone.mustHave,
          minValue: gone.minValue,
          position: position++,
        });
      }
    }
  }
  return { skuZones };
}

function minValue(rng: Rng): number {
  return rng.weighted([
    [1, 85],
    [2, 8],
    [1.5, 4],
    [3, 3],
  ]);
}

function titleCase(text: string): string {
  return text
    .toLowerCase()
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
