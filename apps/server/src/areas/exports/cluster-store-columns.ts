/**
 * A cluster's stores as both cluster files write them, one column a row: what the cell holds, its
 * title and width in the spreadsheet's 'Stores' sheet (cluster-xlsx.ts), its title and share of the
 * page in the PDF's store table (cluster-pdf.ts).
 */
import type { ClusterStoreLine } from './cluster-export.js';
import type { TableColumn } from './pdf-layout.js';
import type { ColumnSpec } from './xlsx-book.js';

interface StoreColumn {
  value: (store: ClusterStoreLine) => string;
  xlsx: ColumnSpec;
  pdf: TableColumn;
}

const STORE_COLUMNS: readonly StoreColumn[] = [
  { value: (s) => s.storeJda, xlsx: { title: 'Store JDA', width: 14 }, pdf: { title: 'Store JDA', share: 13 } },
  { value: (s) => s.codiceStoreSap, xlsx: { title: 'SAP code', width: 14 }, pdf: { title: 'SAP code', share: 13 } },
  { value: (s) => s.name, xlsx: { title: 'Store name', width: 26 }, pdf: { title: 'Store', share: 28 } },
  { value: (s) => s.starsCustomer, xlsx: { title: 'Stars customer', width: 16 }, pdf: { title: 'Stars customer', share: 17 } },
  { value: (s) => s.customerSegmentation, xlsx: { title: 'Segmentation', width: 14 }, pdf: { title: 'Segmentation', share: 14 } },
  { value: (s) => s.countryCode, xlsx: { title: 'Country', width: 9 }, pdf: { title: 'Country', share: 8 } },
  { value: (s) => s.starsZone, xlsx: { title: 'Stars zone', width: 11 }, pdf: { title: 'Zone', share: 7 } },
];

/** The store columns of the spreadsheet's 'Stores' sheet (after the cluster's id and label). */
export const STORE_XLSX_COLUMNS: ColumnSpec[] = STORE_COLUMNS.map((c) => c.xlsx);

/** The columns of the PDF's store table. */
export const STORE_PDF_COLUMNS: TableColumn[] = STORE_COLUMNS.map((c) => c.pdf);

/** A store's cells, in the columns' order (both files). */
export const storeCells = (store: ClusterStoreLine): string[] => STORE_COLUMNS.map((c) => c.value(store));
