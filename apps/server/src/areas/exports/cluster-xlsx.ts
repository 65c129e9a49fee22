/**
 * Clusters as a spreadsheet (xlsx-book.ts: streaming without photos, in memory with them), three sheets:
 * - 'Clusters': one row per cluster, the template's columns (a 'cluster' template, CLUSTER_COLUMNS);
 *   columns about stores or modules list them in one cell, comma-separated;
 * - 'Stores': one row per store of each cluster;
 * - 'Modules': one row per SKU line of each module of each cluster (Must Have first), with the
 *   SKU's picture in a first 'Photo' column in the photo variant.
 * The streaming writer buffers the later sheets until the first is committed; a cluster export is
 * small next to a module export (docs/exports.md "Measured").
 */
import { formatMonthId } from '@bo/shared/months';
import type { ProductDto } from '@bo/shared/modules';
import type { ClusterUnit } from './cluster-export.js';
import { STORE_XLSX_COLUMNS, storeCells } from './cluster-store-columns.js';
import { VERSION_COLUMN_TITLE } from '../../db/product-data.js';
import type { FileWriter } from './export-kind.js';
import { MODULE_COLUMNS } from './module-xlsx.js';
import { createBook, type CellValue, type ColumnSpec } from './xlsx-book.js';

interface ClusterColumnDef extends ColumnSpec {
  value: (unit: ClusterUnit) => CellValue;
}

const list = (values: readonly string[]) => [...new Set(values)].join(', ');

/** The 'cluster' template column names (TEMPLATES in db/product-data.ts) and what each writes. */
export const CLUSTER_COLUMNS: Record<string, ClusterColumnDef> = {
  clusterId: { title: 'Cluster id', width: 16, value: (u) => u.cluster.clusterId },
  clusterLabel: { title: 'Cluster label', width: 28, value: (u) => u.cluster.clusterLabel },
  clusterDescription: { title: 'Description', width: 30, value: (u) => u.cluster.clusterDescription },
  // As people read months (03/2027); Import Cluster reads this form back (uploads/import-file.ts monthOf).
  monthId: { title: 'Month', width: 11, value: (u) => formatMonthId(u.cluster.monthId) },
  brandCode: { title: 'Brand', width: 9, value: (u) => u.cluster.brandCode },
  collection: { title: 'Collection', width: 11, value: (u) => u.cluster.collection },
  country: { title: 'Countries', width: 16, value: (u) => list(u.cluster.country) },
  starZones: { title: 'Stars zones', width: 12, value: (u) => list(u.cluster.starZones) },
  lias: { title: 'LIAs', width: 16, value: (u) => list(u.lias) },
  classifications: { title: 'Client classifications', width: 22, value: (u) => list(u.cluster.classifications.map((c) => c.classificationLabel)) },
  rangeFacing: { title: 'Range facing', width: 13, value: (u) => u.cluster.rangeFacing },
  status: { title: 'Status', width: 12, value: (u) => u.cluster.status },
  legoMonth: { title: 'LEGO', width: 7, value: (u) => (u.cluster.legoMonth ? 'Y' : 'N') },
  door: { title: 'Stores', width: 8, value: (u) => u.stores.length },
  moduleCount: { title: 'Modules', width: 9, value: (u) => u.modules.length },
  // The whole composition, not narrowed by zones: Import Cluster reads 'Module names' back (ClusterUnit.composition).
  moduleName: { title: 'Module names', width: 30, value: (u) => list(u.composition.map((m) => m.moduleName)) },
  moduleLabel: { title: 'Module labels', width: 40, value: (u) => list(u.composition.map((m) => m.moduleLabel)) },
  storeJda: { title: 'Store JDA', width: 24, value: (u) => list(u.stores.map((s) => s.storeJda)) },
  codiceStoreSap: { title: 'SAP codes', width: 24, value: (u) => list(u.stores.map((s) => s.codiceStoreSap)) },
  starsCustomer: { title: 'Stars customers', width: 24, value: (u) => list(u.stores.map((s) => s.starsCustomer)) },
  customerSegmentation: { title: 'Segmentations', width: 16, value: (u) => list(u.stores.map((s) => s.customerSegmentation)) },
  // The cluster's version when exported: Import Cluster refuses a cluster changed since (areas/uploads/stale-version.ts).
  version: { title: VERSION_COLUMN_TITLE, width: 9, value: (u) => u.cluster.version },
};

const unknownColumn = (name: string): ClusterColumnDef => ({ title: name, width: Math.max(10, name.length + 2), value: () => null });

const SKU_COLUMNS = ['moduleName', 'moduleLabel', 'macroFamily', 'mustHave', 'upc', 'model', 'color', 'size', 'srp'].map((c) => MODULE_COLUMNS[c]!);

interface ClusterXlsxOptions {
  /** The template's columns, in order (the 'Clusters' sheet). */
  columns: readonly string[];
  /** With photos: draws the SKU's picture for the 'Modules' sheet. */
  picture?: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
}

export function createClusterXlsx(opts: ClusterXlsxOptions): FileWriter<ClusterUnit> {
  const defs = opts.columns.map((c) => CLUSTER_COLUMNS[c] ?? unknownColumn(c));
  const book = createBook(opts.out, opts.picture);
  const clusterSheet = book.sheet('Clusters', defs);
  const storeSheet = book.sheet('Stores', [CLUSTER_COLUMNS.clusterId!, CLUSTER_COLUMNS.clusterLabel!, ...STORE_XLSX_COLUMNS]);
  const moduleSheet = book.sheet('Modules', [CLUSTER_COLUMNS.clusterId!, CLUSTER_COLUMNS.clusterLabel!, ...SKU_COLUMNS], { photo: true });
  return {
    add(unit) {
      const { cluster } = unit;
      clusterSheet.addRow(defs.map((d) => d.value(unit)));
      for (const s of unit.stores) {
        storeSheet.addRow([cluster.clusterId, cluster.clusterLabel, ...storeCells(s)]);
      }
      for (const { module, lines } of unit.modules) {
        for (const sku of lines) moduleSheet.addRow([cluster.clusterId, cluster.clusterLabel, ...SKU_COLUMNS.map((d) => d.value(module, sku))], sku);
      }
    },
    finish: () => book.finish(),
    drained: () => book.drained(),
  };
}
