import type { WrittenBack } from '#contract/takeoff-rules-api.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { resultFileName } from './result-name.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * Writes the job's XLSX beside its drawing once, even when the job runs again because the worker
 * running it stopped: the store notes the result item's newest version before the upload and what
 * the upload made after it. A note without an outcome means a worker stopped around the upload;
 * the folder then tells: a version newer than the noted one is that upload's.
 */
export async function writeBackOnce(
  cloud: CloudBackend,
  store: JobStore,
  context: CloudContext,
  job: JobRecord,
  bytes: Uint8Array,
): Promise<WrittenBack> {
  const fileName = resultFileName(job.fileName)
  const note = job.writeBack?.fileName === fileName ? job.writeBack : undefined
  if (note?.written) return { fileName, ...note.written }
  const latest = await cloud.latestVersion(context, job.projectId, job.fileFolderId, fileName)
  if (note && latest && latest.versionNumber > note.before) {
    await store.noteWriteBack(job.id, { ...note, written: latest })
    return { fileName, ...latest }
  }
  const before = latest?.versionNumber ?? 0
  await store.noteWriteBack(job.id, { fileName, before })
  const written = await cloud.upload(context, {
    projectId: job.projectId,
    folderId: job.fileFolderId,
    fileName,
    bytes,
  })
  const outcome = { itemId: written.itemId, versionNumber: written.versionNumber }
  await store.noteWriteBack(job.id, { fileName, before, written: outcome })
  return { fileName, ...outcome }
}

/**
 * Writes a workbook made again for a finished job (re-priced) as the next version of its result
 * beside the drawing: each call is a new version, as a person saving it again would make.
 */
export async function writeBackAgain(
  cloud: CloudBackend,
  context: CloudContext,
  job: JobRecord,
  bytes: Uint8Array,
): Promise<WrittenBack> {
  const fileName = resultFileName(job.fileName)
  const written = await cloud.upload(context, {
    projectId: job.projectId,
    folderId: job.fileFolderId,
    fileName,
    bytes,
  })
  return { fileName, itemId: written.itemId, versionNumber: written.versionNumber }
}
