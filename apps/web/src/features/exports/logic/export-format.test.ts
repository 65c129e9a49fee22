import { describe, expect, it } from 'vitest';
import { canStartExport, exportFormat, fileNameOf } from './export-format';

describe('export popup rules', () => {
  it('uses the massive variants for more than one item', () => {
    expect(exportFormat('XLS', 1)).toBe('xls');
    expect(exportFormat('XLS PHOTO', 1)).toBe('xls/photo');
    expect(exportFormat('PDF', 1)).toBe('pdf');
    expect(exportFormat('XLS', 2)).toBe('xls_massive');
    expect(exportFormat('XLS PHOTO', 30)).toBe('xls/photo_massive');
    expect(exportFormat('PDF', 3)).toBe('pdf_massive');
  });

  it('enables EXPORT after a template, or for PDF', () => {
    expect(canStartExport(null, null)).toBe(false);
    expect(canStartExport('XLS', null)).toBe(false);
    expect(canStartExport('XLS PHOTO', null)).toBe(false);
    expect(canStartExport('XLS', 2)).toBe(true);
    expect(canStartExport('PDF', null)).toBe(true);
  });

  it('reads the file name of a content-disposition header', () => {
    expect(fileNameOf(`attachment; filename="Aurora Sun.xlsx"; filename*=UTF-8''Aurora%20S%C3%BCn.xlsx`, 'x')).toBe('Aurora Sün.xlsx');
    expect(fileNameOf('attachment; filename="massive-export.xlsx"', 'x')).toBe('massive-export.xlsx');
    expect(fileNameOf('attachment; filename=plain.pdf', 'x')).toBe('plain.pdf');
    expect(fileNameOf(null, 'fallback.pdf')).toBe('fallback.pdf');
  });
});
