/**
 * POST /api/product/filters (part 1 §7; docs/module-calls.md): the options of the Active SKUs search
 * (`anagraFilters`: brand, collection, planning channel of the product registry) and of the performance
 * filters (`ibicFilters`: months rolling, zones, countries, customers, distribution channels, LEGO
 * classes). Brands and zones are those the caller holds grants for, as on home (`grantedCodes`);
 * countries and customers follow the granted zones.
 */
import { MONTHS_ROLLING_OPTIONS, type ProductFilters } from '@bo/shared/module-info';
import type { ServiceContext } from '../../plugins/context.js';
import { byText } from '../../lib/text-order.js';
import { grantedCodes } from '../../lib/visibility.js';
import * as repo from './product-filters.repository.js';

type Option = { value: string; label: string };
const unique = (list: readonly Option[]) => [...new Map(list.map((o) => [o.value, o])).values()];

export async function productFilters(ctx: ServiceContext, body: repo.SkuScope): Promise<ProductFilters> {
  const granted = grantedCodes(ctx.user.grants);
  const brandOk = (b: string) => granted === 'all' || granted.brands.has(b);
  const zoneOk = (z: string) => granted === 'all' || granted.zones.has(z);
  // Only granted brands narrow: a brand the caller does not hold names nothing.
  const scope = { brand: body.brand?.filter(brandOk) ?? (granted === 'all' ? undefined : [...granted.brands]), collection: body.collection };
  const none = scope.brand?.length === 0;

  const [brandRows, collectionRows, channelRows, legoClasses, zoneRows, countryRows, customerRows] = await Promise.all([
    repo.skuBrands(ctx.db),
    none ? [] : repo.skuCollections(ctx.db, scope),
    none ? [] : repo.skuPlanningChannels(ctx.db, scope),
    none ? [] : repo.skuLegoClasses(ctx.db, scope),
    repo.zones(ctx.db),
    repo.countriesWithZone(ctx.db),
    repo.customers(ctx.db),
  ]);
  const customersHere = customerRows.filter((c) => zoneOk(c.zone));
  return {
    anagraFilters: {
      brand: brandRows.filter((b) => brandOk(b.value)),
      collection: collectionRows,
      planningChannel: channelRows,
    },
    ibicFilters: {
      monthsRolling: [...MONTHS_ROLLING_OPTIONS],
      zonaPerMysa: zoneRows.filter((z) => zoneOk(z.value)),
      // The performance filters take countries and customers by name (the module page sends names) or code.
      countryName: countryRows.filter((c) => zoneOk(c.zone)).map((c) => ({ value: c.name, label: c.name })),
      starsCustomer: unique(customersHere.map((c) => ({ value: c.name, label: c.name }))).sort((a, b) => byText(a.label, b.label)),
      customerCode: customersHere.map((c) => ({ value: c.code, label: `${c.code} - ${c.name}` })),
      distrChannelActual: unique(customersHere.map((c) => ({ value: c.channel, label: c.channel }))).sort((a, b) => byText(a.value, b.value)),
      legoClassDes: legoClasses.map((l) => ({ value: l, label: l })),
    },
  };
}
