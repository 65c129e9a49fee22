/**
 * The export job: builds the spreadsheet or PDF of the modules named in its payload and stores it
 * in its `export_files` row. The file is built in memory and stored in one statement at the end,
 * so a run cut short leaves the row WIP and the resumed run simply builds the file again.
 */
import { EXPORT_CONTENT_TYPES, EXPORT_TEXTS, isMassiveExport, isPdfExport, type ExportFormat } from '@bo/shared/exports';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleDto, ModuleKey, ProductDto } from '@bo/shared/modules';
import type { Db } from '../../db/client.js';
import { exportStatus, markExportFailed, setExportProgress, storeExportContent } from './exports.repository.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { SkuPictures } from '../images/sku-pictures.js';
import { findModules, toModuleDtos } from '../modules/modules.repository.js';
import { createModulePdf } from './module-pdf.js';
import { createModuleXlsx, XLSX_PICTURE_WIDTH } from './module-xlsx.js';

export const EXPORT_JOB = 'export';

export interface ExportJobPayload {
  exportId: number;
  format: ExportFormat;
  /** The modules to export, in the caller's order (checked at the call). */
  modules: ModuleKey[];
  status: 'Published' | 'Saved';
  /** The template's columns at the time of the call (spreadsheets only). */
  columns: string[];
  withPhoto: boolean;
}

/** A file format the job fills module by module. */
export interface ModuleFileWriter {
  /** `lines`: the module's SKUs to write (no REMOVED ones), Must Have first. */
  addModule(module: ModuleDto, lines: readonly ProductDto[]): void;
  finish(): Promise<Buffer>;
}

/** Modules read per round trip. */
const BATCH = 20;
/** Progress of the reading and writing; the rest is the final encoding. */
const WRITING_SHARE = 95;

/** One size for the spreadsheet's Photo column and the PDF cards (about 100 dpi there), so both share the drawings. */
const PICTURE_WIDTH = XLSX_PICTURE_WIDTH;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A module's lines as exported: no REMOVED lines; Must Have first, then Eligible, each in the module's order. */
export function exportedLines(module: ModuleDto): ProductDto[] {
  const active = module.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
  return [...active.filter((p) => p.mustHave), ...active.filter((p) => !p.mustHave)];
}

/** The spec's file names: the label with .xlsx or .pdf for one module, massive-export.* for several. */
export function exportFileName(format: ExportFormat, module: Pick<ModuleDto, 'moduleLabel' | 'moduleName'>): string {
  const extension = isPdfExport(format) ? 'pdf' : 'xlsx';
  if (isMassiveExport(format)) return `massive-export.${extension}`;
  return `${module.moduleLabel.trim() || module.moduleName}.${extension}`;
}

export function exportJob(opts: { lockTtlMinutes: number; pictures: SkuPictures }): JobHandler {
  // Drawing pictures is most of an export's time: through the cache the picture route shares, the
  // thumbnails the page showed, and the pictures of an earlier export (another template, then the
  // PDF), are found drawn.
  const picture = (sku: ProductDto) => opts.pictures.draw({ upc: sku.upc, model: sku.model, color: sku.color, releaseDate: sku.releaseDate, view: 1, width: PICTURE_WIDTH });

  return async ({ job, db, progress }) => {
    const payload = job.payload as ExportJobPayload;
    const status = await exportStatus(db, payload.exportId);
    if (!status) throw new Error(`The export ${payload.exportId} no longer exists`);
    // Stored by an earlier run that stopped before marking the job done.
    if (status === 'DONE') return { result: { exportId: payload.exportId } };
    try {
      const pdf = isPdfExport(payload.format);
      const withPictures = pdf || payload.withPhoto;
      const writer = pdf ? createModulePdf({ picture }) : createModuleXlsx({ columns: payload.columns, ...(withPictures ? { picture } : {}) });

      let reported = -1;
      const report = async (percent: number) => {
        const p = Math.floor(percent);
        if (p === reported) return;
        reported = p;
        await setExportProgress(db, payload.exportId, p);
        await progress(p);
      };

      const first = await writeModules(db, payload, opts.lockTtlMinutes, writer, withPictures ? picture : undefined, (done) => report((done / payload.modules.length) * WRITING_SHARE));
      const content = await writer.finish();
      const fileName = exportFileName(payload.format, first);
      await storeExportContent(db, payload.exportId, { content, fileName, contentType: pdf ? EXPORT_CONTENT_TYPES.pdf : EXPORT_CONTENT_TYPES.xlsx });
      return { result: { exportId: payload.exportId, fileName, bytes: content.length }, response: `Exported ${fileName}` };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await markExportFailed(db, payload.exportId, message);
      throw err;
    }
  };
}

/** Writes the modules in the payload's order; answers the first one written (it names the file). */
async function writeModules(
  db: Db,
  payload: ExportJobPayload,
  lockTtlMinutes: number,
  writer: ModuleFileWriter,
  picture: ((sku: ProductDto) => Buffer) | undefined,
  onProgress: (done: number) => Promise<void>,
): Promise<ModuleDto> {
  let first: ModuleDto | undefined;
  for (let i = 0; i < payload.modules.length; i += BATCH) {
    const keys = payload.modules.slice(i, i + BATCH);
    // A module deleted (or, for Published, reopened) since the call is left out.
    const rows = (await findModules(db, keys)).filter((r) => payload.status === 'Saved' || r.status === 'SUBMITTED');
    const dtos = new Map((await toModuleDtos(db, rows, { lockTtlMinutes })).map((d) => [moduleKeyString(d), d]));
    for (const [j, key] of keys.entries()) {
      const module = dtos.get(moduleKeyString(key));
      if (module) {
        const lines = exportedLines(module);
        if (picture) {
          // Drawing is CPU work: draw ahead in small slices so that requests keep being served.
          for (let k = 0; k < lines.length; k++) {
            picture(lines[k]!);
            if (k % 8 === 7) await yieldToRequests();
          }
        }
        writer.addModule(module, lines);
        first ??= module;
      }
      await onProgress(i + j + 1);
      await yieldToRequests();
    }
  }
  if (!first) throw new Error(EXPORT_TEXTS.nothingToExport);
  return first;
}
