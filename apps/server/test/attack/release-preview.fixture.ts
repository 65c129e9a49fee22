/** An Upload Files preview of holder (FILE_LOADER, its dry run DONE) waiting for Apply: the route-rights row of `POST /data/fileLoader/{uploadId}/apply`. */
import type { Db } from '../../src/db/client.js';
import { jobs, uploads } from '../../src/db/schema.js';

export const RELEASE_PREVIEW_UPLOAD = 900_011;

export async function releasePreview(db: Db): Promise<void> {
  const [job] = await db
    .insert(jobs)
    .values({ kind: 'upload-file-loader', status: 'DONE', progress: 100, payload: { releaseId: 'R2027', type: 'delta', dryRun: true }, result: { ok: true }, response: 'Preview', createdBy: 'holder', finishedAt: new Date() })
    .returning();
  await db.insert(uploads).values({ id: RELEASE_PREVIEW_UPLOAD, type: 'FILE_LOADER', userId: 'holder', fileName: 'module.csv', size: 1, content: Buffer.alloc(0), jobId: job!.id, previewJobId: job!.id });
}
