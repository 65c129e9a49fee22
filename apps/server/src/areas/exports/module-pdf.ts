/**
 * Modules as a PDF catalogue: A4 landscape; per module a heading, then its Must Have and Eligible
 * SKUs as a grid of small cards (pdf-layout.ts); a new page per module and whenever a page is full;
 * page numbers in the footer.
 */
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { formatMonthId } from '@bo/shared/months';
import type { FileWriter } from './export-kind.js';
import type { ModuleUnit } from './module-xlsx.js';
import { GREY, PdfPages } from './pdf-layout.js';

interface ModulePdfOptions {
  /** Draws the SKU's picture (a PNG, 3:2, about 120 px wide for the cards' 84 pt). */
  picture: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
  now?: Date;
}

/** The one-line facts under a module's name. */
export function moduleFacts(module: ModuleDto, lines: readonly ProductDto[]): string {
  const mh = lines.filter((p) => p.mustHave).length;
  return [
    `Module ${module.moduleName}`,
    `Month ${formatMonthId(module.monthId)}`,
    `Brand ${module.brand}`,
    `Collection ${module.collection}`,
    `Status ${module.status.replace(/_/g, ' ')}`,
    ...(module.legoMonth ? ['LEGO'] : []),
    `MH ${mh}`,
    `EL ${lines.length - mh}`,
  ].join('   ·   ');
}

export function createModulePdf(opts: ModulePdfOptions): FileWriter<ModuleUnit> {
  const pages = new PdfPages({ layout: 'landscape', title: 'Module export', ...opts });

  function heading(module: ModuleDto, lines: readonly ProductDto[], continued: boolean) {
    pages.addPage();
    pages.line(`${module.moduleLabel}${continued ? ' (continued)' : ''}`, { font: 'bold', size: continued ? 11 : 16, gap: 5 });
    if (!continued) pages.line(moduleFacts(module, lines), { size: 9, color: GREY, gap: 7 });
    pages.rule();
  }

  return {
    add({ module, lines }) {
      heading(module, lines, false);
      const continued = () => heading(module, lines, true);
      pages.skuSection('Must Have', lines.filter((p) => p.mustHave), continued);
      pages.skuSection('Eligible', lines.filter((p) => !p.mustHave), continued);
    },
    finish: () => pages.finish(),
  };
}
