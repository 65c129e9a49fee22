/**
 * Workbooks for the Import Data browser tests (uploads.e2e.ts, import-preview.e2e.ts): written here with
 * ExcelJS as Export Module XLS writes them, reduced to the columns the import needs.
 */
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { loginAs } from './auth';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ImportedLine {
  upc: string;
  mustHave: boolean;
  minValue: number;
  moduleCompositionStatus: string;
}

/** The fields of a module (POST /module/details) the import tests read. */
export interface ImportedModule {
  moduleName: string;
  monthId: string;
  status: string;
  productDtoList: ImportedLine[];
}

/** A module's lines that are not removed: those its export writes. */
export const activeLines = (m: ImportedModule): ImportedLine[] => m.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');

/** Each module's active lines, those `flipped` picks with MH ↔ EL switched; `version` adds the Version column (per module name). */
export async function moduleWorkbook(
  items: readonly ImportedModule[],
  flipped: (m: ImportedModule, line: ImportedLine, index: number) => boolean,
  version?: Record<string, number>,
): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Modules');
  sheet.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value', ...(version ? ['Version'] : [])]);
  for (const m of items) {
    activeLines(m).forEach((p, i) => {
      const mustHave = flipped(m, p, i) ? !p.mustHave : p.mustHave;
      sheet.addRow([m.moduleName, m.monthId, p.upc, mustHave ? 'MH' : 'EL', p.minValue, ...(version ? [version[m.moduleName]] : [])]);
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Signs in as `user` and opens Import Data. */
export async function openImportData(page: Page, user = 'admin'): Promise<void> {
  await loginAs(page, user);
  await page.goto('/backoffice/upload');
  await page.getByRole('heading', { name: 'Import Data' }).waitFor();
}
