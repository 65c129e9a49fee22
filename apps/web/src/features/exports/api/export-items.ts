import { EXPORT_TEXTS, exportStartedSchema, isMassiveExport, isPdfExport, isPhotoExport, type ExportFormat, type ModuleExportItem } from '@bo/shared/exports';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { saveFile } from '@/lib/download';
import { waitForJob, type Job } from '@/lib/jobs';
import { fileNameOf } from '../logic/export-format';

export type { ModuleExportItem };

export interface ExportRequest {
  type: 'module';
  format: ExportFormat;
  templateId: number | null;
  status: 'Published' | 'Saved';
  items: ModuleExportItem[];
  /** The massive variants name the user (spec: param userId). */
  userId?: string | undefined;
}

/**
 * POST /data/export/{format}/{type}: the server builds the file as a persisted job and answers it
 * when ready; when it takes longer it answers 202 with the export and job ids, and the file is
 * fetched from GET /data/export/files/:id once the job is done. Saves the file; answers its name.
 */
export async function exportItems(request: ExportRequest, onProgress?: (job: Job) => void): Promise<string> {
  const massive = isMassiveExport(request.format);
  const pdf = isPdfExport(request.format);
  const query = {
    templateId: pdf ? undefined : (request.templateId ?? undefined),
    status: request.status,
    withPhoto: isPhotoExport(request.format),
    userId: massive ? request.userId : undefined,
  };
  const answer = await api.post<Response>(`/export/${request.format}/${request.type}`, request.items, { prefix: '/data', query, responseType: 'response', alertOnError: false });
  let file = answer;
  if (answer.status === 202) {
    const { exportId, jobId } = exportStartedSchema.parse(await answer.json());
    const job = await waitForJob(jobId, { onProgress });
    if (job.status !== 'DONE') throw new ApiError(500, 'exportFailed', job.response || EXPORT_TEXTS.failed);
    file = await api.get<Response>(`/export/files/${exportId}`, { prefix: '/data', responseType: 'response', alertOnError: false });
  }
  const fileName = fileNameOf(file.headers.get('content-disposition'), `${massive ? 'massive-export' : (request.items[0]?.moduleName ?? 'export')}.${pdf ? 'pdf' : 'xlsx'}`);
  saveFile(await file.blob(), fileName);
  return fileName;
}
