/**
 * Modules as a PDF catalogue: A4 landscape; per module a heading, then its Must Have and Eligible
 * SKUs as a grid of small cards (picture, model colour size, UPC, price); a new page per module and
 * whenever a page is full; page numbers in the footer.
 */
import PDFDocument from 'pdfkit';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { formatPrice } from '@bo/shared/format';
import { formatMonthId } from '@bo/shared/months';
import type { ModuleFileWriter } from './export.job.js';

const MARGIN = 28;
const FOOTER = 18;
const CARD = { width: 92, height: 96, gap: 6, picture: 56, pad: 4 } as const;
const GREY = '#666666';

/** Prices as the web app shows them ('1.234,50 €'); the PDF's Helvetica has no narrow no-break space. */
export const formatEuro = (value: number | null | undefined) => formatPrice(value).replace(/\u202f/g, '\u00a0');

const pad2 = (n: number) => String(n).padStart(2, '0');
const formatDateTime = (d: Date) => `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}/${d.getFullYear()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;

export interface ModulePdfOptions {
  /** Draws the SKU's picture (a PNG, 3:2, about 120 px wide for the cards' 84 pt). */
  picture: (sku: ProductDto) => Buffer;
  now?: Date;
}

export function createModulePdf(opts: ModulePdfOptions): ModuleFileWriter {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: 'Module export', Creator: 'Assortment Backoffice' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  // pdfkit embeds an opened image once however often it is drawn: one per UPC for the whole file.
  const opened = new Map<string, PDFKit.Mixins.ImageSrc>();
  const openImage = (doc as unknown as { openImage(src: Buffer): PDFKit.Mixins.ImageSrc }).openImage.bind(doc);
  const pictureOf = (sku: ProductDto) => {
    let image = opened.get(sku.upc);
    if (!image) {
      image = openImage(opts.picture(sku));
      opened.set(sku.upc, image);
    }
    return image;
  };

  let y = 0;
  const left = MARGIN;
  const top = MARGIN;
  const pageWidth = () => doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  const perRow = () => Math.max(1, Math.floor((pageWidth() + CARD.gap) / (CARD.width + CARD.gap)));

  function moduleHeading(module: ModuleDto, continued: boolean) {
    doc.addPage();
    y = top;
    doc.font('Helvetica-Bold').fontSize(continued ? 11 : 16).fillColor('black');
    doc.text(`${module.moduleLabel}${continued ? ' (continued)' : ''}`, left, y, { width: pageWidth(), lineBreak: false, ellipsis: true });
    y += continued ? 16 : 21;
    if (!continued) {
      const active = module.productDtoList;
      const mh = active.filter((p) => p.mustHave).length;
      const meta = [
        `Module ${module.moduleName}`,
        `Month ${formatMonthId(module.monthId)}`,
        `Brand ${module.brand}`,
        `Collection ${module.collection}`,
        `Status ${module.status.replace(/_/g, ' ')}`,
        `MH ${mh}`,
        `EL ${active.length - mh}`,
      ].join('   ·   ');
      doc.font('Helvetica').fontSize(9).fillColor(GREY).text(meta, left, y, { width: pageWidth(), lineBreak: false, ellipsis: true });
      y += 16;
    }
    doc.moveTo(left, y).lineTo(left + pageWidth(), y).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
    y += 8;
  }

  function sectionTitle(text: string) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black').text(text, left, y, { lineBreak: false });
    y += 15;
  }

  function card(sku: ProductDto, x: number, cy: number) {
    doc.roundedRect(x, cy, CARD.width, CARD.height, 4).lineWidth(0.5).strokeColor('#cccccc').stroke();
    const inner = CARD.width - 2 * CARD.pad;
    doc.image(pictureOf(sku), x + CARD.pad, cy + CARD.pad, { fit: [inner, CARD.picture], align: 'center', valign: 'center' });
    let ty = cy + CARD.pad + CARD.picture + 3;
    const line = (text: string, font: string, size: number, color = 'black') => {
      doc.font(font).fontSize(size).fillColor(color).text(text, x + CARD.pad, ty, { width: inner, height: size + 2, lineBreak: false, ellipsis: true });
      ty += size + 2.5;
    };
    line(`${sku.model} ${sku.color} ${sku.size}`, 'Helvetica-Bold', 7);
    line(sku.upc, 'Helvetica', 6.5, GREY);
    line(formatEuro(sku.srp), 'Helvetica', 7);
  }

  function section(module: ModuleDto, title: string, skus: readonly ProductDto[]) {
    if (y + 15 + (skus.length ? CARD.height : 12) > bottom()) moduleHeading(module, true);
    sectionTitle(`${title} (${skus.length})`);
    if (skus.length === 0) {
      doc.font('Helvetica-Oblique').fontSize(8).fillColor(GREY).text('No SKUs', left, y, { lineBreak: false });
      y += 18;
      return;
    }
    const columns = perRow();
    for (let i = 0; i < skus.length; i += columns) {
      if (y + CARD.height > bottom()) {
        moduleHeading(module, true);
        sectionTitle(`${title} (continued)`);
      }
      skus.slice(i, i + columns).forEach((sku, j) => card(sku, left + j * (CARD.width + CARD.gap), y));
      y += CARD.height + CARD.gap;
    }
    y += 8;
  }

  function footers() {
    const exported = `Assortment Backoffice · exported on ${formatDateTime(opts.now ?? new Date())}`;
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Writing inside the bottom margin must not start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      const fy = doc.page.height - MARGIN - 8;
      doc.font('Helvetica').fontSize(7.5).fillColor(GREY);
      doc.text(exported, left, fy, { lineBreak: false });
      doc.text(`Page ${i - start + 1} of ${count}`, left, fy, { width: pageWidth(), align: 'right', lineBreak: false });
      doc.page.margins.bottom = margin;
    }
  }

  return {
    addModule(module, lines) {
      const shown = { ...module, productDtoList: [...lines] };
      moduleHeading(shown, false);
      section(shown, 'Must Have', lines.filter((p) => p.mustHave));
      section(shown, 'Eligible', lines.filter((p) => !p.mustHave));
    },
    async finish() {
      footers();
      doc.end();
      await ended;
      return Buffer.concat(chunks);
    },
  };
}
