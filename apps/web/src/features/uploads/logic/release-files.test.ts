import { UPLOAD_TEXTS } from '@bo/shared/uploads';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import {
  canUploadFiles,
  type ChosenFiles,
  dispositionFileName,
  isReleaseFileName,
  missingForUpload,
  sortByReleaseId,
  uploadFilesFailureLines,
} from './release-files';

const file = (name: string) => new File(['x'], name);
const all: ChosenFiles = { module: file('module.csv'), cluster: file('cluster.csv'), registry: file('registry.xlsx'), segment: file('segment.csv') };

describe('canUploadFiles (part 2 §5: a release and all four files; nothing while an upload is WIP)', () => {
  it('is enabled with a release and the four files, no WIP upload and nothing being sent', () => {
    expect(canUploadFiles({ releaseId: 'R2027', files: all, wip: false, busy: false })).toBe(true);
  });
  it('waits for the release', () => {
    expect(canUploadFiles({ releaseId: null, files: all, wip: false, busy: false })).toBe(false);
    expect(canUploadFiles({ releaseId: '', files: all, wip: false, busy: false })).toBe(false);
  });
  it('waits for each of the four files', () => {
    for (const field of ['module', 'cluster', 'registry', 'segment'] as const) {
      expect(canUploadFiles({ releaseId: 'R2027', files: { ...all, [field]: null }, wip: false, busy: false }), field).toBe(false);
      const { [field]: _, ...rest } = all;
      expect(canUploadFiles({ releaseId: 'R2027', files: rest, wip: false, busy: false }), field).toBe(false);
    }
  });
  it('stays disabled while an upload of the caller is WIP, or while sending / reading the state', () => {
    expect(canUploadFiles({ releaseId: 'R2027', files: all, wip: true, busy: false })).toBe(false);
    expect(canUploadFiles({ releaseId: 'R2027', files: all, wip: false, busy: true })).toBe(false);
  });
  it('names what is missing, in page order', () => {
    expect(missingForUpload({ releaseId: null, files: {} })).toEqual(['a release', 'Module Composition', 'Cluster Composition', 'Sku Registry', 'Customer Segmentation']);
    expect(missingForUpload({ releaseId: 'R2027', files: { ...all, registry: null } })).toEqual(['Sku Registry']);
    expect(missingForUpload({ releaseId: 'R2027', files: all })).toEqual([]);
  });
});

describe('uploadFilesFailureLines (part 2 §8)', () => {
  it("reads 'Request rejected with status {status} Msg: {message}'", () => {
    expect(uploadFilesFailureLines(new ApiError(400, 'badRequest', 'The release R2026 is closed'))).toEqual(['Request rejected with status 400 Msg: The release R2026 is closed']);
    expect(uploadFilesFailureLines(new ApiError(403, 'forbidden', 'Only administrators may upload the release files.'))).toEqual([
      'Request rejected with status 403 Msg: Only administrators may upload the release files.',
    ]);
    expect(uploadFilesFailureLines(new ApiError(409, 'httpError', UPLOAD_TEXTS.wipExists))).toEqual([`Request rejected with status 409 Msg: ${UPLOAD_TEXTS.wipExists}`]);
  });
  it("shows further ';' parts on lines of their own", () => {
    expect(uploadFilesFailureLines(new ApiError(400, 'badRequest', 'The field type is missing.; The Sku Registry file is missing (field registry).'))).toEqual([
      'Request rejected with status 400 Msg: The field type is missing.',
      'The Sku Registry file is missing (field registry).',
    ]);
  });
  it('keeps a status-only text as it is, and an empty message after Msg:', () => {
    expect(uploadFilesFailureLines(new ApiError(502, 'httpError', 'Request rejected with status 502'))).toEqual(['Request rejected with status 502']);
    expect(uploadFilesFailureLines(new ApiError(400, 'httpError', ''))).toEqual(['Request rejected with status 400 Msg: ']);
  });
  it("says 'Oops, Something Went Wrong' without an answer or for anything but an API error", () => {
    expect(uploadFilesFailureLines(new ApiError(0, 'network', 'Nothing was saved: the server could not be reached.'))).toEqual([UPLOAD_TEXTS.genericError]);
    expect(uploadFilesFailureLines(new Error('boom'))).toEqual([UPLOAD_TEXTS.genericError]);
  });
});

describe('isReleaseFileName', () => {
  it('takes .csv and .xlsx whatever their case', () => {
    for (const name of ['module.csv', 'MODULE.CSV', 'registry.xlsx', 'Segment 2027.Xlsx']) expect(isReleaseFileName({ name }), name).toBe(true);
  });
  it('refuses anything else', () => {
    for (const name of ['module.xls', 'module.txt', 'module.csv.pdf', 'csv', 'module']) expect(isReleaseFileName({ name }), name).toBe(false);
  });
});

describe('sortByReleaseId', () => {
  it('sorts by releaseId without changing the input', () => {
    const input = [{ releaseId: 'R2028' }, { releaseId: 'R2026' }, { releaseId: 'R2027' }];
    expect(sortByReleaseId(input).map((r) => r.releaseId)).toEqual(['R2026', 'R2027', 'R2028']);
    expect(input[0]!.releaseId).toBe('R2028');
  });
});

describe('dispositionFileName', () => {
  it('reads filename* first, then filename, else the fallback', () => {
    expect(dispositionFileName(`attachment; filename="module.csv"; filename*=UTF-8''R2027%20module.csv`, 'x')).toBe('R2027 module.csv');
    expect(dispositionFileName('attachment; filename="module-template.xlsx"', 'x')).toBe('module-template.xlsx');
    expect(dispositionFileName(null, 'fallback.csv')).toBe('fallback.csv');
  });
});
