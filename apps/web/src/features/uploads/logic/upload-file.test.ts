import { UPLOAD_TEXTS, type UploadItem } from '@bo/shared/uploads';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { acceptedInto, formatFileSize, importInProgress, isXlsxFile, textLines, uploadFailureLines } from './upload-file';

describe('isXlsxFile', () => {
  it('takes .xlsx names whatever their case', () => {
    expect(isXlsxFile({ name: 'modules.xlsx' })).toBe(true);
    expect(isXlsxFile({ name: 'MODULES.XLSX' })).toBe(true);
    expect(isXlsxFile({ name: 'march 2027.Xlsx' })).toBe(true);
  });
  it('refuses other spreadsheets and look-alikes', () => {
    for (const name of ['modules.xls', 'modules.csv', 'modules.xlsm', 'modules.xlsx.pdf', 'xlsx', 'modules', 'modules.xlsx.']) {
      expect(isXlsxFile({ name }), name).toBe(false);
    }
  });
});

describe('formatFileSize', () => {
  it('reads bytes, kilobytes and megabytes the Italian way', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(840)).toBe('840 B');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(12_697)).toBe('12,4 KB');
    expect(formatFileSize(3.2 * 1024 * 1024)).toBe('3,2 MB');
    expect(formatFileSize(1500 * 1024 * 1024)).toBe('1.500 MB');
  });
  it('leaves nonsense empty', () => {
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
  });
});

describe('textLines', () => {
  it('splits on semicolons, trims and drops empty parts', () => {
    expect(textLines('AU_01 M05_2027: saved; AU_02 M05_2027: nothing to change;;  ')).toEqual(['AU_01 M05_2027: saved', 'AU_02 M05_2027: nothing to change']);
    expect(textLines(null)).toEqual([]);
    expect(textLines('')).toEqual([]);
  });
});

describe('uploadFailureLines', () => {
  it('shows what the server says about a refused file, one line per part', () => {
    expect(uploadFailureLines(new ApiError(400, 'badRequest', UPLOAD_TEXTS.notExcel))).toEqual([UPLOAD_TEXTS.notExcel]);
    expect(uploadFailureLines(new ApiError(400, 'badRequest', 'Missing column(s): UPC; The workbook has no rows to import.'))).toEqual([
      'Missing column(s): UPC',
      'The workbook has no rows to import.',
    ]);
    expect(uploadFailureLines(new ApiError(409, 'httpError', UPLOAD_TEXTS.wipExists))).toEqual([UPLOAD_TEXTS.wipExists]);
    expect(uploadFailureLines(new ApiError(403, 'httpError', UPLOAD_TEXTS.noImportRight))).toEqual([UPLOAD_TEXTS.noImportRight]);
    expect(uploadFailureLines(new ApiError(413, 'httpError', UPLOAD_TEXTS.tooLarge(20)))).toEqual([UPLOAD_TEXTS.tooLarge(20)]);
  });
  it("says 'Oops, Something Went Wrong' for a server failure, no answer or an empty text", () => {
    expect(uploadFailureLines(new ApiError(500, 'internalError', 'Nothing was saved: the server had a problem. Try again.'))).toEqual([UPLOAD_TEXTS.genericError]);
    expect(uploadFailureLines(new ApiError(0, 'network', 'Nothing was saved: the server could not be reached.'))).toEqual([UPLOAD_TEXTS.genericError]);
    expect(uploadFailureLines(new ApiError(400, 'httpError', ' ; '))).toEqual([UPLOAD_TEXTS.genericError]);
    expect(uploadFailureLines(new Error('boom'))).toEqual([UPLOAD_TEXTS.genericError]);
  });
});

const upload = (id: number, status: UploadItem['status'], userId = 'carla'): UploadItem => ({
  id,
  insertTime: '2027-05-02T10:15:00Z',
  progress: status === 'WIP' ? 40 : 100,
  response: status === 'WIP' ? null : 'AU_01 M05_2027: saved',
  status,
  type: 'MODULE_MASSIVE_CREATION',
  userId,
  fileName: `f${id}.xlsx`,
  size: 2048,
});

describe('importInProgress', () => {
  it('follows the state when it says an import runs', () => {
    const wip = upload(3, 'WIP');
    expect(importInProgress({ list: [], state: { wip: true, upload: wip } }, 'carla')).toEqual({ wip: true, upload: wip });
  });
  it("keeps the areas closed while the list still shows one of the caller's uploads as WIP", () => {
    const listed = upload(3, 'WIP');
    expect(importInProgress({ list: [listed, upload(2, 'DONE')], state: { wip: false, upload: null } }, 'carla')).toEqual({ wip: true, upload: listed });
  });
  it("keeps the areas closed while one of the caller's previews waits for Apply or Cancel (docs/IMPORT-PREVIEW.md)", () => {
    const waiting = upload(3, 'PREVIEW');
    expect(importInProgress({ list: [waiting], state: { wip: false, upload: null } }, 'carla')).toEqual({ wip: true, upload: waiting });
  });
  it("ignores another user's WIP upload (an admin sees everyone's) and finished, cancelled or expired ones", () => {
    const view = { list: [upload(4, 'WIP', 'enzo'), upload(6, 'PREVIEW', 'enzo'), upload(5, 'CANCELLED'), upload(7, 'EXPIRED'), upload(3, 'ERROR'), upload(2, 'DONE')], state: { wip: false, upload: null } };
    expect(importInProgress(view, 'carla')).toEqual({ wip: false, upload: null });
    expect(importInProgress(view, undefined)).toEqual({ wip: false, upload: null });
  });
});

describe('acceptedInto', () => {
  it('puts the accepted upload on top, once, and the state to WIP', () => {
    const accepted = upload(5, 'WIP');
    const view = acceptedInto({ list: [upload(5, 'WIP'), upload(4, 'DONE')], state: { wip: false, upload: null } }, accepted);
    expect(view.list.map((u) => u.id)).toEqual([5, 4]);
    expect(view.state).toEqual({ wip: true, upload: accepted });
    expect(acceptedInto(undefined, accepted)).toEqual({ list: [accepted], state: { wip: true, upload: accepted } });
  });
});
