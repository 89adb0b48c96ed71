import type { ChangesFrom } from '../boq/write/files.ts'
import { sameDrawing } from './same-drawing.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * The bill the workbook of `job` (version `versionNumber` of its drawing) is compared with: the
 * user's succeeded job of the latest earlier version of the same drawing (`sameDrawing`) whose BOQ
 * JSON is kept. None: undefined.
 */
export async function findEarlierBill(
  store: JobStore,
  job: JobRecord,
  versionNumber: number,
): Promise<ChangesFrom | undefined> {
  const candidates = (await store.listByUser(job.userId))
    .filter(
      (other) =>
        other.status === 'succeeded' &&
        other.result?.jsonKept === true &&
        sameDrawing(other, job) &&
        other.fileVersionNumber !== undefined &&
        other.fileVersionNumber < versionNumber,
    )
    // The latest earlier version; of its jobs, the newest (listByUser is newest first).
    .sort((a, b) => (b.fileVersionNumber ?? 0) - (a.fileVersionNumber ?? 0))
  for (const earlier of candidates) {
    const json = await store.readResult(earlier.id, 'json')
    if (!json) continue
    return {
      json,
      from: {
        jobId: earlier.id,
        fileName: earlier.fileName,
        versionNumber: earlier.fileVersionNumber ?? null,
      },
      to: { jobId: job.id, fileName: job.fileName, versionNumber },
    }
  }
  return undefined
}
