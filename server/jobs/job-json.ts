import type { JobJson, JobRecord } from './types.ts'

/**
 * The job as the API answers it: no owner id, no attempt count; the units chosen or null;
 * progress only while running.
 */
export function toJobJson(job: JobRecord): JobJson {
  const json: JobJson = {
    id: job.id,
    status: job.status,
    fileName: job.fileName,
    projectId: job.projectId,
    fileFolderId: job.fileFolderId,
    fileStorageId: job.fileStorageId,
    units: job.units ? { ...job.units } : null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  }
  if (job.status === 'running') json.progress = job.progress ?? 0
  if (job.status === 'failed') json.error = job.error ?? 'The job failed.'
  if (job.status === 'succeeded' && job.result) {
    const base = `/api/boq/jobs/${encodeURIComponent(job.id)}`
    json.result = { ...job.result, xlsxUrl: `${base}/result.xlsx`, csvUrl: `${base}/result.csv` }
  }
  return json
}
