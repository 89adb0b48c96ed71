import type { Job } from '#contract/jobs.ts'
import type { FolderPlace } from '../cloud/types.ts'
import type { JobRecord } from './types.ts'

/**
 * The job as the API answers it: no owner id, no attempt count; the units chosen, the version
 * number and the folder's parts or null; progress only while running; a result with its warnings
 * (none for jobs recorded before warnings were kept).
 */
export function toJobJson(job: JobRecord): Job {
  const json: Job = {
    id: job.id,
    status: job.status,
    fileName: job.fileName,
    projectId: job.projectId,
    fileFolderId: job.fileFolderId,
    fileStorageId: job.fileStorageId,
    fileVersionNumber: job.fileVersionNumber ?? null,
    folder: folderJson(job.folder),
    units: job.units ? { ...job.units } : null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  }
  if (job.pricedWith) json.pricedWith = { ...job.pricedWith }
  if (job.watchId) json.watchId = job.watchId
  if (job.status === 'running') json.progress = job.progress ?? 0
  if (job.status === 'failed') json.error = job.error ?? 'The job failed.'
  if (job.status === 'succeeded' && job.result) {
    const base = `/api/boq/jobs/${encodeURIComponent(job.id)}`
    const warnings = job.result.warnings ?? []
    const { jsonKept, geometryKept: _kept, comparedWith, ...result } = job.result
    json.result = {
      ...result,
      warnings: [...warnings],
      warningCount: job.result.warningCount ?? warnings.length,
      xlsxUrl: `${base}/result.xlsx`,
      csvUrl: `${base}/result.csv`,
      jsonUrl: jsonKept ? `${base}/result.json` : null,
      // Kept or not, the route answers it: one not kept is built on its first request.
      geometryUrl: `${base}/geometry`,
      comparedWith: comparedWith ?? null,
      changedLines: job.result.changedLines ?? null,
    }
  }
  return json
}

/** Where a folder sits as the API answers it: each part, or null when not known. */
export function folderJson(folder: FolderPlace = {}): Job['folder'] {
  return {
    name: folder.name ?? null,
    hubId: folder.hubId ?? null,
    path: folder.path ? [...folder.path] : null,
  }
}
