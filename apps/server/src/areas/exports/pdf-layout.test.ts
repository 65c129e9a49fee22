import { describe, expect, it } from 'vitest';
import type { ClusterDto } from '@bo/shared/clusters';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { HAS_PDFTOTEXT, NO_PDFTOTEXT, pdfPages } from '../../../test/pdf-text.js';
import { renderSkuImage } from '../../lib/images/sku-image.js';
import type { ClusterUnit } from './cluster-export.js';
import { createClusterPdf } from './cluster-pdf.js';

const picture = (sku: ProductDto) => renderSkuImage({ upc: sku.upc, model: sku.model, color: sku.color, releaseDate: '2027-01-01', view: 1, width: 120 });

/** A cluster whose description has `lines` lines, with 3 stores and one module of 4 Must Have SKUs. */
function unit(lines: number): ClusterUnit {
  const cluster = {
    clusterId: 'CL_FOOT',
    clusterLabel: 'Foot of the page',
    clusterDescription: Array.from({ length: lines }, (_, i) => `Description line ${i + 1}`).join('\n'),
    monthId: 'M01_2027',
    brandCode: 'AUR',
    collection: 'SUN',
    status: 'SUBMITTED',
    legoMonth: false,
    country: ['IT'],
    starZones: ['EU'],
    classifications: [],
    rangeFacing: null,
  } as unknown as ClusterDto;
  const stores = [1, 2, 3].map((i) => ({ storeJda: `JDA${i}`, codiceStoreSap: `SAP${i}`, name: `Store number ${i}`, starsCustomer: 'CUST', customerSegmentation: 'A', countryCode: 'IT', starsZone: 'EU' }));
  const module = { moduleName: 'MOD_FOOT', moduleLabel: 'Module at the foot', monthId: 'M01_2027', brand: 'AUR', collection: 'SUN', status: 'SUBMITTED', legoMonth: false } as unknown as ModuleDto;
  const skus = [0, 1, 2, 3].map((i) => ({ upc: `80000000000${i}`, model: `FOOT${i}`, color: 'C1', size: '54', srp: 100, mustHave: true }) as unknown as ProductDto);
  return { cluster, lias: [], stores, modules: [{ module, lines: skus }] } as unknown as ClusterUnit;
}

async function pdfOf(lines: number) {
  const chunks: Buffer[] = [];
  const writer = createClusterPdf({ picture, out: (c) => chunks.push(c), now: new Date('2026-11-28T12:00:00Z') });
  await writer.add(unit(lines));
  await writer.finish();
  return Buffer.concat(chunks);
}

/** The page (0-based) whose text holds `text`, from page `from` on. */
const pageOf = (pages: string[], text: string, from = 0) => pages.findIndex((p, i) => i >= from && p.includes(text));

describe('a PDF section heading is never left alone at the foot of a page', () => {
  // Every description length from none to more than a page moves the headings after it through every
  // position on the page, the last lines included.
  (HAS_PDFTOTEXT ? it : it.skip)(`keeps each heading on the page of its first line, row or cards${HAS_PDFTOTEXT ? '' : ` (${NO_PDFTOTEXT})`}`, async () => {
    const broken: string[] = [];
    for (let lines = 0; lines <= 70; lines++) {
      const pages = pdfPages(await pdfOf(lines));
      const together = (heading: string, first: string) => {
        const at = pageOf(pages, heading);
        if (at < 0) broken.push(`${lines} lines: no "${heading}"`);
        else if (pageOf(pages, first, at) !== at) broken.push(`${lines} lines: "${heading}" on page ${at + 1}, "${first}" on page ${pageOf(pages, first, at) + 1}`);
      };
      if (lines > 0) together('Description', 'Description line 1');
      together('Stores (3)', 'Store number 1');
      together('Modules (1)', 'Module at the foot');
      together('Module at the foot', 'FOOT0');
      together('Must Have (4)', 'FOOT0');
    }
    expect(broken).toEqual([]);
  }, 120_000);
});
