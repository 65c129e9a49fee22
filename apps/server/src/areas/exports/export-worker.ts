/**
 * The export worker (a child process of the server; export-worker-client.ts starts it through lib/worker-host.ts): it
 * writes export files — the SKU pictures drawn and encoded, the workbook built and zipped, the PDF laid out — so
 * that none of that CPU work runs on the thread that answers the planners' requests, nor at their priority (docs/exports.md "Off the
 * main thread"). The job, in the server, reads the items from the database and sends them here one at a
 * time; the file's bytes go back as they are made, and the job stores them. One session is one export.
 */
import type { ProductDto } from '@bo/shared/modules';
import { pictureKey, SkuPictures } from '../../lib/images/sku-pictures.js';
import { serveSessions } from '../../lib/worker-sessions.js';
import type { ExportAdd, ExportOptions, ExportRun } from './export-worker-client.js';
import { createExportWriter, exportPictureRequest } from './export-writers.js';

/**
 * The pictures this worker drew, kept across exports while it lives (an export as XLS, then as PDF, draws
 * them once), bounded as the picture route's cache is (png-cache.ts).
 */
const pictures = new SkuPictures();

serveSessions<ExportOptions, ExportAdd, ExportRun>('export-worker.ts', (options, out) => {
  /** Pictures the server had already drawn (its picture route's cache), for the unit being added. */
  const known = new Map<string, Buffer>();
  let drawn = 0;
  const picture = (sku: ProductDto): Buffer => {
    const req = exportPictureRequest(sku);
    const mine = known.get(pictureKey(req));
    if (mine) return mine;
    const before = pictures.drawn;
    const png = pictures.draw(req);
    drawn += pictures.drawn - before;
    return png;
  };
  const writer = createExportWriter(options.kind, { pdf: options.pdf, columns: options.columns, out, ...(options.withPictures ? { picture } : {}) });
  return {
    async add({ unit, known: handed }) {
      for (const [key, png] of handed) known.set(key, Buffer.from(png.buffer, png.byteOffset, png.byteLength));
      writer.add(unit);
      known.clear();
      await writer.drained?.();
    },
    async finish() {
      await writer.finish();
      return { pid: process.pid, drawn };
    },
  };
});
