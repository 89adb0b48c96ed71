import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import type { JobRecord } from './types.ts'

/**
 * The number of the job's version, for a job recorded without one (the route learns it at submit
 * time now): the cloud's own lookup of the version by its storage id, near the job's folder and
 * name. Undefined when it cannot be found.
 */
export async function findVersionNumber(
  cloud: CloudBackend,
  ctx: CloudContext,
  job: Pick<JobRecord, 'projectId' | 'fileFolderId' | 'fileStorageId' | 'fileName'>,
): Promise<number | undefined> {
  const near = { folderId: job.fileFolderId, fileName: job.fileName }
  return (await cloud.storedVersion(ctx, job.projectId, job.fileStorageId, near))?.versionNumber
}
