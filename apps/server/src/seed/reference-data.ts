/**
 * The fixed, fictional world of the demo: calendar, brands, channels, zones, countries,
 * families, LIAs, classifications, templates, colours. Only stores and customers grow with scale.
 */
import { toMonthId } from '@bo/shared/months';
import type { FrameShape } from '../lib/images/draw-eyewear.js';
import { Rng } from './random.js';

// ───────────────────────────── Calendar ─────────────────────────────

const FIRST_YEAR = 2026;
export const MONTH_COUNT = 24;
/** Months before this one are closed; it and the later ones are open. */
export const FIRST_OPEN_MONTH = 'M11_2026';
export const FIRST_OPEN_INDEX = 10;

export interface MonthRow {
  monthId: string;
  year: number;
  month: number;
  open: boolean;
  releaseId: string;
  /** 0 for M01_2026 … 23 for M12_2027. */
  index: number;
}

export const RELEASES = [
  {
    releaseId: 'R2026',
    creationDate: new Date('2025-06-02T08:00:00Z'),
    status: 'CLOSED',
    foVisibility: 'PUBLISHED',
    foPublicationDate: new Date('2025-07-01T08:00:00Z'),
    viewerVisibility: 'PUBLISHED',
    viewerPublicationDate: new Date('2025-07-01T08:00:00Z'),
  },
  {
    releaseId: 'R2027',
    creationDate: new Date('2026-09-01T08:00:00Z'),
    status: 'OPEN',
    foVisibility: 'UNPUBLISHED',
    foPublicationDate: null,
    viewerVisibility: 'PUBLISHED',
    viewerPublicationDate: new Date('2026-09-15T08:00:00Z'),
  },
] as const;

/** M01_2026 … M12_2027; the closed months belong to R2026, the open ones to the open R2027. */
export function buildMonths(): MonthRow[] {
  const rows: MonthRow[] = [];
  for (let index = 0; index < MONTH_COUNT; index++) {
    const year = FIRST_YEAR + Math.floor(index / 12);
    const month = (index % 12) + 1;
    const monthId = toMonthId(year, month);
    const open = index >= FIRST_OPEN_INDEX;
    rows.push({ monthId, year, month, open, releaseId: open ? 'R2027' : 'R2026', index });
  }
  return rows;
}

/** A fixed instant inside a month (day 1 … 28), used for created/updated/published times. */
export function dateInMonth(month: MonthRow, day: number, hour = 9): Date {
  return new Date(Date.UTC(month.year, month.month - 1, Math.min(28, Math.max(1, day)), hour, 0, 0));
}

// ───────────────────────────── Brands and collections ─────────────────────────────

export interface Brand {
  code: string;
  name: string;
  /** Two letters that start the brand's model codes (AU4012). */
  modelPrefix: string;
  /** Digit that follows the number system in the brand's UPCs. */
  upcDigit: number;
  /** Share of the SKU range: big brands have more. */
  weight: number;
}

export const BRANDS: readonly Brand[] = [
  { code: 'AUR', name: 'Aurora Optics', modelPrefix: 'AU', upcDigit: 1, weight: 1.3 },
  { code: 'VLT', name: 'Velto', modelPrefix: 'VT', upcDigit: 2, weight: 1.0 },
  { code: 'SLN', name: 'Solenne', modelPrefix: 'SN', upcDigit: 3, weight: 0.9 },
  { code: 'NRD', name: 'Nordika', modelPrefix: 'ND', upcDigit: 4, weight: 0.9 },
  { code: 'MRA', name: 'Marea', modelPrefix: 'MR', upcDigit: 5, weight: 0.9 },
];

export const COLLECTIONS = [
  { code: 'SUN', description: 'Sunglasses', nameToken: 'SUN', modelDigit: 4 },
  { code: 'OPTICAL', description: 'Optical frames', nameToken: 'OPT', modelDigit: 7 },
] as const;
export type CollectionCode = (typeof COLLECTIONS)[number]['code'];

export const PLANNING_CHANNELS = [
  { planningChannelId: 'WHOLESALE', label: 'Wholesale' },
  { planningChannelId: 'RETAIL', label: 'Retail' },
  { planningChannelId: 'ECOMMERCE', label: 'E-commerce' },
] as const;
export const CHANNEL_WEIGHTS: readonly (readonly [string, number])[] = [
  ['WHOLESALE', 6],
  ['RETAIL', 3],
  ['ECOMMERCE', 1.5],
];

// ───────────────────────────── Geography and customers ─────────────────────────────

export const STARS_ZONES = [
  { zoneCode: 'EU', description: 'Europe' },
  { zoneCode: 'NA', description: 'North America' },
  { zoneCode: 'LATAM', description: 'Latin America' },
  { zoneCode: 'APAC', description: 'Asia Pacific' },
  { zoneCode: 'MEA', description: 'Middle East and Africa' },
] as const;
export const ZONE_CODES: readonly string[] = STARS_ZONES.map((z) => z.zoneCode);

export const COUNTRIES = [
  { countryCode: 'IT', name: 'Italy', starsZone: 'EU', cities: ['Milano', 'Roma', 'Torino', 'Napoli', 'Bologna'] },
  { countryCode: 'FR', name: 'France', starsZone: 'EU', cities: ['Paris', 'Lyon', 'Marseille', 'Nice'] },
  { countryCode: 'DE', name: 'Germany', starsZone: 'EU', cities: ['Berlin', 'Munchen', 'Hamburg', 'Koln'] },
  { countryCode: 'ES', name: 'Spain', starsZone: 'EU', cities: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla'] },
  { countryCode: 'GB', name: 'United Kingdom', starsZone: 'EU', cities: ['London', 'Manchester', 'Leeds'] },
  { countryCode: 'NL', name: 'Netherlands', starsZone: 'EU', cities: ['Amsterdam', 'Rotterdam', 'Utrecht'] },
  { countryCode: 'US', name: 'United States', starsZone: 'NA', cities: ['New York', 'Miami', 'Chicago', 'Dallas', 'Seattle'] },
  { countryCode: 'CA', name: 'Canada', starsZone: 'NA', cities: ['Toronto', 'Montreal', 'Vancouver'] },
  { countryCode: 'BR', name: 'Brazil', starsZone: 'LATAM', cities: ['Sao Paulo', 'Rio de Janeiro', 'Curitiba'] },
  { countryCode: 'MX', name: 'Mexico', starsZone: 'LATAM', cities: ['Ciudad de Mexico', 'Guadalajara', 'Monterrey'] },
  { countryCode: 'AR', name: 'Argentina', starsZone: 'LATAM', cities: ['Buenos Aires', 'Cordoba', 'Rosario'] },
  { countryCode: 'JP', name: 'Japan', starsZone: 'APAC', cities: ['Tokyo', 'Osaka', 'Nagoya'] },
  { countryCode: 'AU', name: 'Australia', starsZone: 'APAC', cities: ['Sydney', 'Melbourne', 'Brisbane'] },
  { countryCode: 'SG', name: 'Singapore', starsZone: 'APAC', cities: ['Singapore'] },
  { countryCode: 'AE', name: 'United Arab Emirates', starsZone: 'MEA', cities: ['Dubai', 'Abu Dhabi'] },
  { countryCode: 'ZA', name: 'South Africa', starsZone: 'MEA', cities: ['Johannesburg', 'Cape Town', 'Durban'] },
] as const;

export const CUSTOMER_SEGMENTATIONS = [
  { segmentationCode: 'GOLD', label: 'Gold' },
  { segmentationCode: 'SILVER', label: 'Silver' },
  { segmentationCode: 'BRONZE', label: 'Bronze' },
] as const;
export const SEGMENTATION_CODES: readonly string[] = CUSTOMER_SEGMENTATIONS.map((s) => s.segmentationCode);

const CUSTOMER_NAME_PARTS = {
  first: ['Ottica', 'Lunettes', 'Vision', 'Optica', 'Brillen', 'Eye', 'Sun', 'Focus', 'Clear', 'Lumen', 'Iris', 'Horizon'],
  second: ['Bellavista', 'Centrale', 'Express', 'Studio', 'Boutique', 'Atelier', 'Point', 'Corner', 'House', 'Gallery', 'Plus', 'Select'],
};
const DISTRIBUTION_CHANNELS: readonly (readonly [string, number])[] = [
  ['OPTICIAN', 6],
  ['DEPARTMENT STORE', 2],
  ['SPORT', 1],
  ['TRAVEL RETAIL', 1],
  ['ONLINE', 1],
];

interface StarsCustomerRow {
  customerCode: string;
  name: string;
  countryCode: string;
  planningChannelId: string;
  distributionChannel: string;
}

export interface StoreRow {
  storeJda: string;
  codiceStoreSap: string;
  name: string;
  starsCustomer: string;
  countryCode: string;
  customerSegmentation: string;
  planningChannelId: string;
}

/** Stars customers (every country has at least one) and their stores (every customer has one). */
export function buildCustomersAndStores(
  seed: number,
  scale: number,
): { customers: StarsCustomerRow[]; stores: StoreRow[] } {
  const rng = Rng.for(seed, 'customers');
  const customerCount = Math.max(COUNTRIES.length + 4, Math.round(40 * Math.sqrt(scale)));
  const customers: StarsCustomerRow[] = [];
  for (let i = 0; i < customerCount; i++) {
    const country = i < COUNTRIES.length ? COUNTRIES[i]! : rng.weighted(COUNTRIES.map((c) => [c, countryWeight(c.starsZone)] as const));
    const name = `${rng.pick(CUSTOMER_NAME_PARTS.first)} ${rng.pick(CUSTOMER_NAME_PARTS.second)} ${country.countryCode}${i + 1}`;
    customers.push({
      customerCode: `C${String(100001 + i)}`,
      name,
      countryCode: country.countryCode,
      planningChannelId: rng.weighted(CHANNEL_WEIGHTS),
      distributionChannel: rng.weighted(DISTRIBUTION_CHANNELS),
    });
  }
  const storeCount = Math.max(customerCount * 2, Math.round(400 * scale));
  const stores: StoreRow[] = [];
  const perCustomer = new Map<string, number>();
  for (let i = 0; i < storeCount; i++) {
    const customer = i < customerCount ? customers[i]! : rng.pick(customers);
    const n = (perCustomer.get(customer.customerCode) ?? 0) + 1;
    perCustomer.set(customer.customerCode, n);
    const country = COUNTRIES.find((c) => c.countryCode === customer.countryCode)!;
    stores.push({
      storeJda: String(200000 + i * 7),
      codiceStoreSap: `S${String(1000000 + i * 13).padStart(7, '0')}`,
      name: `${customer.name.replace(/ [A-Z]{2}\d+$/, '')} ${rng.pick(country.cities)} ${String(n).padStart(2, '0')}`,
      starsCustomer: customer.customerCode,
      countryCode: customer.countryCode,
      customerSegmentation: rng.weighted([
        ['GOLD', 2],
        ['SILVER', 3],
        ['BRONZE', 4],
      ]),
      planningChannelId: customer.planningChannelId,
    });
  }
  return { customers, stores };
}

function countryWeight(zone: string): number {
  return zone === 'EU' ? 3 : zone === 'NA' ? 2 : 1;
}

// ───────────────────────────── LIAs, classifications, templates ─────────────────────────────

export const LIAS = [
  { liaCode: 'WHS_STANDARD', planningChannelId: 'WHOLESALE' },
  { liaCode: 'WHS_PREMIUM', planningChannelId: 'WHOLESALE' },
  { liaCode: 'WHS_TRAVEL', planningChannelId: 'WHOLESALE' },
  { liaCode: 'RET_FLAGSHIP', planningChannelId: 'RETAIL' },
  { liaCode: 'RET_OUTLET', planningChannelId: 'RETAIL' },
  { liaCode: 'RET_SHOP_IN_SHOP', planningChannelId: 'RETAIL' },
  { liaCode: 'ECOM_MAIN', planningChannelId: 'ECOMMERCE' },
  { liaCode: 'ECOM_MARKETPLACE', planningChannelId: 'ECOMMERCE' },
] as const;

/** Labels follow the product rule: A-Z, 0-9, _ and -, at most 15 characters. */
export const CLIENT_CLASSIFICATIONS = [
  'PREMIUM',
  'TOP_DOOR',
  'OUTLET',
  'TRAVEL-RETAIL',
  'SPORT_FOCUS',
  'NEW_OPENING',
  'FLAGSHIP',
  'A1',
] as const;

// ───────────────────────────── Macro families ─────────────────────────────

export interface MacroFamily {
  name: string;
  specialKind: 'BEST_SELLER' | 'NEWNESS' | null;
  /** Token used in module names (AUR_SUN_PILOT_01): capitals only, at most 8 characters. */
  token: string;
  /** The frame shape whose models the family's modules prefer; null = any shape. */
  shape: FrameShape | null;
  /** How many modules of a brand and collection belong to it, relative to the others. */
  weight: number;
}

export const MACRO_FAMILIES: readonly MacroFamily[] = [
  { name: 'BEST SELLERS', specialKind: 'BEST_SELLER', token: 'BEST', shape: null, weight: 1.2 },
  { name: 'NEWNESS', specialKind: 'NEWNESS', token: 'NEW', shape: null, weight: 1.2 },
  { name: 'PILOT', specialKind: null, token: 'PILOT', shape: 'pilot', weight: 1 },
  { name: 'SQUARE', specialKind: null, token: 'SQUARE', shape: 'square', weight: 1 },
  { name: 'ROUND', specialKind: null, token: 'ROUND', shape: 'round', weight: 1 },
  { name: 'CAT EYE', specialKind: null, token: 'CATEYE', shape: 'cateye', weight: 0.9 },
  { name: 'SPORT', specialKind: null, token: 'SPORT', shape: 'sport', weight: 0.8 },
  { name: 'RECTANGLE', specialKind: null, token: 'RECT', shape: 'rectangle', weight: 0.9 },
  { name: 'OVAL', specialKind: null, token: 'OVAL', shape: 'oval', weight: 0.7 },
  { name: 'BROWLINE', specialKind: null, token: 'BROWLINE', shape: 'browline', weight: 0.6 },
  { name: 'OVERSIZED', specialKind: null, token: 'OVERSIZE', shape: 'oversized', weight: 0.6 },
  { name: 'GEOMETRIC', specialKind: null, token: 'GEOMETRY', shape: 'geometric', weight: 0.6 },
];

// ───────────────────────────── Product attributes ─────────────────────────────

export const GENDERS: readonly (readonly [string, number])[] = [
  ['UNISEX', 4],
  ['MAN', 3],
  ['WOMAN', 3],
  ['KID', 0.6],
];
export const FRAME_MATERIALS: readonly (readonly [string, number])[] = [
  ['ACETATE', 4],
  ['METAL', 3],
  ['INJECTED', 3],
  ['TITANIUM', 1],
  ['NYLON', 1],
];
export const MARKETING_THEMES = ['ICONS', 'ESSENTIALS', 'LIFESTYLE', 'PERFORMANCE', 'FASHION', 'HERITAGE'] as const;
export const LEGO_CLASSES = ['CORE', 'TREND', 'LEGO', 'ICON'] as const;

// ───────────────────────────── LEGO months ─────────────────────────────

/** About a quarter of the month × brand × collection combinations are LEGO months. */
export function legoMonthRows(seed: number, months: readonly MonthRow[]): { monthId: string; brandCode: string; collection: string }[] {
  const rng = Rng.for(seed, 'lego-months');
  const rows: { monthId: string; brandCode: string; collection: string }[] = [];
  for (const month of months) {
    for (const brand of BRANDS) {
      for (const collection of COLLECTIONS) {
        if (rng.chance(0.25)) rows.push({ monthId: month.monthId, brandCode: brand.code, collection: collection.code });
      }
    }
  }
  return rows;
}
