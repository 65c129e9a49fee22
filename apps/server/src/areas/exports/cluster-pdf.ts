/**
 * Clusters as a PDF for a store manager, A4 portrait (pdf-layout.ts): per cluster a first page with
 * its label, its facts (month, brand, collection, countries, stars zones, LIAs, client
 * classifications, range facing, status, LEGO) and its stores as a table; then each module with its
 * Must Have and Eligible SKUs as picture cards. Every page continued from an earlier one repeats the
 * cluster (and module) heading; page numbers in the footer.
 */
import type { ProductDto } from '@bo/shared/modules';
import { formatMonthId } from '@bo/shared/months';
import type { ClusterUnit } from './cluster-export.js';
import type { FileWriter } from './export-kind.js';
import { moduleFacts } from './module-pdf.js';
import { STORE_PDF_COLUMNS, storeCells } from './cluster-store-columns.js';
import { GREY, PdfPages, SKU_SECTION_START, TABLE_START } from './pdf-layout.js';

interface ClusterPdfOptions {
  picture: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
  now?: Date;
}

/** A module's label and facts lines, and its first SKU section's title and cards: kept with the heading before them. */
const MODULE_START = 13 + 4 + 8.5 + 6 + SKU_SECTION_START;

const orNone = (values: readonly string[]) => (values.length ? values.join(', ') : '—');

export function createClusterPdf(opts: ClusterPdfOptions): FileWriter<ClusterUnit> {
  const pages = new PdfPages({ layout: 'portrait', title: 'Cluster export', ...opts });

  return {
    add(unit) {
      const { cluster } = unit;
      const continued = (module?: string) => () => {
        pages.addPage();
        pages.line(`${cluster.clusterLabel} (continued)`, { font: 'bold', size: 11, gap: 4 });
        if (module) pages.line(module, { font: 'bold', size: 10, color: GREY, gap: 4 });
        pages.rule();
      };

      pages.addPage();
      pages.line(cluster.clusterLabel, { font: 'bold', size: 18, gap: 6 });
      const skuCount = new Set(unit.modules.flatMap((m) => m.lines.map((l) => l.upc))).size;
      pages.line(
        [`Cluster ${cluster.clusterId}`, `Month ${formatMonthId(cluster.monthId)}`, `Brand ${cluster.brandCode}`, `Collection ${cluster.collection}`, `Status ${cluster.status.replace(/_/g, ' ')}`, ...(cluster.legoMonth ? ['LEGO'] : [])].join('   ·   '),
        { size: 10, color: GREY, gap: 10 },
      );
      const facts: [string, string][] = [
        ['Countries', orNone(cluster.country)],
        ['Stars zones', orNone(cluster.starZones)],
        ['LIAs', orNone(unit.lias)],
        ['Client classifications', orNone(cluster.classifications.map((c) => c.classificationLabel))],
        ['Range facing', cluster.rangeFacing ?? '—'],
        ['Stores · Modules · SKUs', `${unit.stores.length} · ${unit.modules.length} · ${skuCount}`],
        ...(cluster.clusterDescription.trim() ? ([['Description', cluster.clusterDescription]] as [string, string][]) : []),
      ];
      for (const [label, value] of facts) {
        pages.heading(label, { font: 'bold', size: 8, color: GREY, gap: 2 }, pages.lineHeight(10), continued());
        pages.paragraph(value, { size: 10, gap: 6 }, continued());
      }
      pages.rule(10);

      pages.heading(`Stores (${unit.stores.length})`, { font: 'bold', size: 12, gap: 6 }, unit.stores.length ? TABLE_START : 19, continued());
      if (unit.stores.length === 0) pages.line('No stores', { font: 'italic', size: 9, color: GREY, gap: 10 });
      else pages.table(STORE_PDF_COLUMNS, unit.stores.map(storeCells), continued());

      pages.heading(`Modules (${unit.modules.length})`, { font: 'bold', size: 12, gap: 6 }, unit.modules.length ? MODULE_START : 19, continued());
      if (unit.modules.length === 0) pages.line('No modules', { font: 'italic', size: 9, color: GREY, gap: 10 });
      for (const { module, lines } of unit.modules) {
        const more = continued(`${module.moduleLabel} (continued)`);
        pages.heading(module.moduleLabel, { font: 'bold', size: 13, gap: 4 }, MODULE_START - 13 - 4, continued());
        pages.line(moduleFacts(module, lines), { size: 8.5, color: GREY, gap: 6 });
        pages.skuSection('Must Have', lines.filter((p) => p.mustHave), more);
        pages.skuSection('Eligible', lines.filter((p) => !p.mustHave), more);
      }
    },
    finish: () => pages.finish(),
  };
}
