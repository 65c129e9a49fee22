/**
 * The product range: per brand and collection, models in several colours and sizes. Besides the
 * rows, each SKU carries what the later generators need (shape, popularity, release day).
 */
import { shapeOfModel, type FrameShape } from '../lib/images/draw-eyewear.js';
import { FRAME_COLOURS, LENS_COLOURS } from '../lib/images/palette.js';
import type { skus } from '../db/schema.js';
import {
  BRANDS,
  CHANNEL_WEIGHTS,
  COLLECTIONS,
  FRAME_MATERIALS,
  GENDERS,
  LEGO_CLASSES,
  MARKETING_THEMES,
  type Brand,
  type CollectionCode,
} from './reference-data.js';
import { Rng } from './random.js';
import { brandUpc } from './upc.js';

export type SkuRow = typeof skus.$inferInsert & { upc: string; releaseDate: string };

export interface SkuInfo {
  row: SkuRow;
  shape: FrameShape;
  /** Relative demand, about 1 on average, long-tailed. */
  popularity: number;
  /** Popularity percentile within the brand and collection, 0–1. */
  popularityRank: number;
  /** Days since 1970-01-01 of the release. */
  releaseDay: number;
}

export interface SkuGroup {
  brand: Brand;
  collection: CollectionCode;
  skus: SkuInfo[];
}

const SKUS_AT_SCALE_1 = 4000;
const FIRST_RELEASE_DAY = dayNumber('2019-01-07');
const LAST_RELEASE_DAY = dayNumber('2027-09-27');
const NEW_FLAG_FROM_DAY = dayNumber('2026-06-01');

export function dayNumber(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
}

function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Every SKU, grouped by brand and collection (brands in order, SUN before OPTICAL). */
export function generateSkus(seed: number, scale: number): SkuGroup[] {
  const totalWeight = BRANDS.reduce((s, b) => s + b.weight, 0);
  const groups: SkuGroup[] = [];
  let skuId = 1_000_001;
  for (const brand of BRANDS) {
    let upcSeq = 0;
    for (const collection of COLLECTIONS) {
      const rng = Rng.for(seed, 'skus', brand.code, collection.code);
      const share = collection.code === 'SUN' ? 0.55 : 0.45;
      const target = Math.max(12, Math.round((SKUS_AT_SCALE_1 * scale * brand.weight * share) / totalWeight));
      const list: SkuInfo[] = [];
      const digits = target > 3000 ? (target > 30000 ? 5 : 4) : 3;
      for (let modelNo = 1; list.length < target; modelNo++) {
        const model = `${brand.modelPrefix}${collection.modelDigit}${String(modelNo).padStart(digits, '0')}`;
        for (const sku of modelSkus(rng, brand, collection.code, model)) {
          if (list.length >= target) break;
          sku.row.skuId = skuId++;
          sku.row.upc = brandUpc(brand.upcDigit, upcSeq++);
          list.push(sku);
        }
      }
      const byDemand = list.slice().sort((p, q) => p.popularity - q.popularity);
      byDemand.forEach((s, i) => {
        s.popularityRank = byDemand.length > 1 ? i / (byDemand.length - 1) : 0.5;
      });
      groups.push({ brand, collection: collection.code, skus: list });
    }
  }
  return groups;
}

function modelSkus(rng: Rng, brand: Brand, collection: CollectionCode, model: string): SkuInfo[] {
  const sun = collection === 'SUN';
  const shape = shapeOfModel(model);
  const metalShape = shape === 'pilot' || shape === 'round' || shape === 'browline';
  const frameMaterial = metalShape && rng.chance(0.6) ? 'METAL' : rng.weighted(FRAME_MATERIALS);
  const gender = rng.weighted(GENDERS);
  const marketingTheme = shape === 'sport' && rng.chance(0.6) ? 'PERFORMANCE' : rng.pick(MARKETING_THEMES);
  const legoClass = rng.chance(0.85) ? rng.pick(LEGO_CLASSES) : null;
  const releaseDay = rng.int(FIRST_RELEASE_DAY, LAST_RELEASE_DAY);
  const modelPopularity = Math.exp(rng.gaussian() * 0.7);
  const polarModel = sun && rng.chance(0.25);
  const prizm = sun && rng.chance(0.1);
  const basePrice =
    (sun ? 115 : 95) +
    (frameMaterial === 'TITANIUM' ? 90 : frameMaterial === 'METAL' ? 25 : 0) +
    (polarModel ? 40 : 0) +
    (prizm ? 30 : 0) +
    rng.int(0, 8) * 10 +
    (brand.code === 'AUR' ? 20 : 0);
  const discoModel = releaseDay < dayNumber('2022-01-01') && rng.chance(0.3);

  const colourCount = rng.weighted([
    [2, 3],
    [3, 4],
    [4, 2],
    [5, 1],
  ] as const);
  const sizes = sun ? rng.sample(['52', '54', '55', '57', '58', '60', '62'], rng.chance(0.35) ? 2 : 1) : rng.sample(['49', '50', '51', '52', '53', '54', '56'], rng.chance(0.3) ? 2 : 1);
  sizes.sort();
  const frames = rng.sample(FRAME_COLOURS, colourCount);
  const out: SkuInfo[] = [];
  frames.forEach((frame, colourIndex) => {
    const lens = sun ? (polarModel && colourIndex === 0 ? LENS_COLOURS.find((l) => l.code === '2P')! : rng.pick(LENS_COLOURS)) : null;
    const color = lens ? `${frame.code}/${lens.code}` : frame.code;
    const colorDescription = lens ? `${frame.description} / ${lens.description}` : frame.description;
    // A later colour of a model may arrive a season after the model itself.
    const skuRelease = colourIndex > 1 && rng.chance(0.3) ? Math.min(LAST_RELEASE_DAY, releaseDay + rng.int(90, 240)) : releaseDay;
    const popularity = modelPopularity * Math.exp(rng.gaussian() * 0.35) * (colourIndex === 0 ? 1.4 : 1);
    for (const size of sizes) {
      const disco = discoModel ? rng.chance(0.8) : rng.chance(0.02);
      const flagN = skuRelease >= NEW_FLAG_FROM_DAY;
      const srp = basePrice + (size === sizes[sizes.length - 1] && sizes.length > 1 ? 10 : 0);
      const row: SkuRow = {
        upc: '',
        skuId: 0,
        model,
        color,
        colorDescription,
        size,
        materialCode: `0${model}`,
        skuCode: `0${model}__${color}${size}`,
        brandCode: brand.code,
        collection,
        planningChannelId: rng.weighted(CHANNEL_WEIGHTS),
        srp,
        whsprice: Math.round(srp * 46) / 100,
        releaseDate: isoDay(skuRelease),
        insertDate: isoDay(skuRelease - rng.int(30, 150)),
        gedExpireDate: disco ? isoDay(dayNumber('2026-11-01') + rng.int(0, 240)) : null,
        gedConfirmed: disco && rng.chance(0.5),
        flagN,
        flagNewAdv: flagN && rng.chance(0.3),
        flagDisco: disco,
        discoType: disco ? (rng.chance(0.3) ? 'Super disco' : 'Disco') : null,
        globalCatalogue: rng.weighted([
          ['YES', 80],
          ['Restrict', 12],
          ['NO', 8],
        ]),
        polar: lens?.code === '2P' || (polarModel && rng.chance(0.5)),
        sapStatus: rng.chance(0.015) ? rng.pick(['Z', 'I']) : null,
        deleted: rng.chance(0.01),
        newIn: skuRelease >= dayNumber('2026-09-01') && skuRelease < dayNumber('2027-03-01') && rng.chance(0.5),
        gender,
        frameMaterial,
        marketingTheme,
        prizm,
        legoClass,
      };
      out.push({ row, shape, popularity, popularityRank: 0, releaseDay: skuRelease });
    }
  });
  return out;
}
