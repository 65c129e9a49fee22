/**
 * Sales figures of the SKUs that sit in modules: monthly tile figures (sell-in, sell-out, ranks,
 * door index, pty) and the performance facts per stars zone and customer segmentation.
 */
import { DEFAULT_MONTHS_ROLLING } from '@bo/shared/working-area';
import type { skuMonthStats, skuPerformance } from '../db/schema.js';
import type { BatchWriter } from './batch-writer.js';
import { SEGMENTATION_CODES, ZONE_CODES, type MonthRow } from './reference-data.js';
import { Rng } from './random.js';
import { dayNumber, type SkuGroup, type SkuInfo } from './skus.js';

/** The longest window the performance filters offer (Months rolling 1, 3, 6, 9 or 12). */
export const LONGEST_ROLLING_WINDOW = 12;

/**
 * The months that carry performance facts: every month of the rolling windows that end with an open
 * month (the popup reads the window ending with the module's month). Up to scale 1 the longest window
 * the filters offer, above it the default one (DEFAULT_MONTHS_ROLLING), to stay at a few million rows.
 */
function performanceMonths(scale: number, months: readonly MonthRow[]): MonthRow[] {
  const span = scale <= 1 ? LONGEST_ROLLING_WINDOW : DEFAULT_MONTHS_ROLLING;
  const firstOpen = months.findIndex((m) => m.open);
  const lastOpen = months.findLastIndex((m) => m.open);
  if (firstOpen < 0) return [];
  return months.slice(Math.max(0, firstOpen - span + 1), lastOpen + 1);
}

function seasonality(collection: string, month: number): number {
  const wave = Math.sin((2 * Math.PI * (month - 3)) / 12);
  return collection === 'SUN' ? 1 + 0.45 * wave : 1 + 0.08 * wave;
}

/** Demand factor of a SKU in a month: nothing much before release, a launch boost, a disco fade. */
function lifecycle(sku: SkuInfo, month: MonthRow): number {
  const monthDay = dayNumber(`${month.year}-${String(month.month).padStart(2, '0')}-01`);
  const age = monthDay - sku.releaseDay;
  if (age < -30) return 0.12;
  let f = age < 120 ? 1.3 : 1;
  if (sku.row.flagDisco) f *= 0.55;
  if (month.year === 2027) f *= 1.05;
  return f;
}

export async function writeSkuMonthStats(
  seed: number,
  groups: readonly SkuGroup[],
  months: readonly MonthRow[],
  inModules: ReadonlyMap<string, number>,
  writer: BatchWriter<typeof skuMonthStats>,
): Promise<void> {
  for (const group of groups) {
    const list = group.skus.filter((s) => inModules.has(s.row.upc));
    if (list.length === 0) continue;
    const rng = Rng.for(seed, 'month-stats', group.brand.code, group.collection);
    const n = list.length;
    const sellIn = new Int32Array(n);
    const sellOut = new Int32Array(n);
    const outOfStars = new Int32Array(n);
    for (const month of months) {
      const season = seasonality(group.collection, month.month);
      for (let i = 0; i < n; i++) {
        const sku = list[i]!;
        const base = 140 * sku.popularity * season * lifecycle(sku, month) * rng.range(0.8, 1.2);
        sellIn[i] = Math.max(0, Math.round(base));
        sellOut[i] = Math.round(sellIn[i]! * rng.range(0.65, 1.05));
        outOfStars[i] = Math.round(sellOut[i]! * rng.range(0.03, 0.25));
      }
      const rankIn = ranks(sellIn);
      const rankOut = ranks(sellOut);
      const rankOos = ranks(outOfStars);
      for (let i = 0; i < n; i++) {
        const sku = list[i]!;
        const door = 100 * (0.65 * sku.popularityRank + 0.35 * rng.float());
        await writer.add({
          upc: sku.row.upc,
          monthId: month.monthId,
          sellIn: sellIn[i]!,
          sellOut: sellOut[i]!,
          outOfStars: outOfStars[i]!,
          rankSellIn: rankIn[i]!,
          rankSellOut: rankOut[i]!,
          rankOutOfStars: rankOos[i]!,
          skuTurn: Math.round(rng.range(0.4, 5.5) * 100) / 100,
          doorIndex: Math.min(100, Math.max(0, Math.round(door))),
          pty: Math.round(sellOut[i]! * rng.range(9, 13)),
          extraSellIn: rng.chance(0.15) ? rng.int(5, 80) : 0,
        });
      }
    }
  }
}

/** 1 for the biggest value; ties keep the SKUs' order. */
function ranks(values: Int32Array): Int32Array {
  const order = Array.from(values.keys()).sort((a, b) => values[b]! - values[a]! || a - b);
  const out = new Int32Array(values.length);
  order.forEach((index, position) => {
    out[index] = position + 1;
  });
  return out;
}

const ZONE_SIZE: Record<string, number> = { EU: 1, NA: 0.8, LATAM: 0.4, APAC: 0.45, MEA: 0.25 };
const SEGMENT_DOORS: Record<string, number> = { GOLD: 0.22, SILVER: 0.33, BRONZE: 0.45 };
const SEGMENT_RATE: Record<string, number> = { GOLD: 2.1, SILVER: 1.3, BRONZE: 0.8 };

export async function writeSkuPerformance(
  seed: number,
  scale: number,
  groups: readonly SkuGroup[],
  months: readonly MonthRow[],
  inModules: ReadonlyMap<string, number>,
  writer: BatchWriter<typeof skuPerformance>,
): Promise<MonthRow[]> {
  const window = performanceMonths(scale, months);
  // Big worlds keep the two main zones of a SKU (one above scale 10) only, to stay at a few million rows.
  const maxZones = scale <= 1 ? ZONE_CODES.length : scale <= 10 ? 2 : 1;
  for (const group of groups) {
    // One stream per month: a month's figures do not depend on which other months are in the window.
    const rngs = window.map((month) => Rng.for(seed, 'performance', group.brand.code, group.collection, month.monthId));
    for (const sku of group.skus) {
      const mask = inModules.get(sku.row.upc);
      if (mask === undefined) continue;
      const zones = ZONE_CODES.filter((_, i) => mask & (1 << i)).slice(0, maxZones);
      for (const [k, month] of window.entries()) {
        const rng = rngs[k]!;
        const demand = sku.popularity * seasonality(group.collection, month.month) * lifecycle(sku, month);
        for (const zone of zones) {
          for (const segment of SEGMENTATION_CODES) {
            const numDoor = Math.max(1, Math.round(120 * ZONE_SIZE[zone]! * SEGMENT_DOORS[segment]! * (0.3 + sku.popularityRank) * rng.range(0.7, 1.3)));
            const sellOut = Math.round(numDoor * SEGMENT_RATE[segment]! * demand * rng.range(0.5, 1.5));
            await writer.add({
              upc: sku.row.upc,
              monthId: month.monthId,
              starsZone: zone,
              customerSegmentation: segment,
              numDoor,
              sellIn: Math.round(sellOut * rng.range(0.9, 1.3)),
              sellOut,
            });
          }
        }
      }
    }
  }
  return window;
}
