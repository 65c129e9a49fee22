/**
 * The file writers of both kinds, and the picture each SKU gets in them: what the export worker
 * (export-worker.ts) runs, off the main thread. Nothing here reads the database, so the worker loads
 * the writers (ExcelJS, pdfkit, the fonts, the picture renderer) and nothing else of the server.
 */
import type { ExportKind } from '@bo/shared/exports';
import type { ProductDto } from '@bo/shared/modules';
import type { SkuImageRequest } from '../../lib/images/sku-image.js';
import type { ClusterUnit } from './cluster-export.js';
import { createClusterPdf } from './cluster-pdf.js';
import { createClusterXlsx } from './cluster-xlsx.js';
import type { FileWriter, WriterOptions } from './export-kind.js';
import { createModulePdf } from './module-pdf.js';
import { createModuleXlsx, XLSX_PICTURE_WIDTH, type ModuleUnit } from './module-xlsx.js';

/** One size for the spreadsheet's Photo column and the PDF cards (about 100 dpi there), so both share the drawings. */
const EXPORT_PICTURE_WIDTH = XLSX_PICTURE_WIDTH;

/** The picture a SKU shows in an export: its front view at EXPORT_PICTURE_WIDTH (the size of the module page's tiles). */
export const exportPictureRequest = (sku: ProductDto): SkuImageRequest => ({ upc: sku.upc, model: sku.model, color: sku.color, releaseDate: sku.releaseDate, view: 1, width: EXPORT_PICTURE_WIDTH });

type Writers = { module: (opts: WriterOptions) => FileWriter<ModuleUnit>; cluster: (opts: WriterOptions) => FileWriter<ClusterUnit> };

const WRITERS: Writers = {
  module: ({ pdf, columns, picture, out }) => (pdf ? createModulePdf({ picture: picture!, out }) : createModuleXlsx({ columns, out, ...(picture ? { picture } : {}) })),
  cluster: ({ pdf, columns, picture, out }) => (pdf ? createClusterPdf({ picture: picture!, out }) : createClusterXlsx({ columns, out, ...(picture ? { picture } : {}) })),
};

/** The writer of a kind's file in a format (a PDF always shows pictures: `picture` is then required). */
export function createExportWriter(kind: ExportKind, opts: WriterOptions): FileWriter<unknown> {
  return WRITERS[kind](opts) as FileWriter<unknown>;
}
