import type { BillDrawing } from '#contract/project-bills.ts'
import type { JobRecord } from '../jobs/types.ts'
import type { CloudDrawing } from './bill-drawings.ts'

/** A drawing's state, and the job whose kept bill gives its figures (none: not billed). */
export interface StatedDrawing {
  drawing: BillDrawing
  job?: JobRecord
}

/**
 * What a drawing is, from the jobs of its versions (found by storage id, so a job of another
 * drawing of the same name is never taken): its newest version with a succeeded extraction whose
 * bill is kept is the one billed; a newer version queued or running is `extracting`, a newer one
 * with no bill `newer-version`; with no bill at all, `extracting`, `failed` with the newest
 * failure's reason, or `no-bill`. `jobs` are newest first (as the store lists them).
 */
export function drawingState(cloud: CloudDrawing, jobs: readonly JobRecord[]): StatedDrawing {
  const mine = jobs.flatMap((job) => {
    const versionNumber = cloud.versions.get(job.fileStorageId)
    return versionNumber === undefined ? [] : [{ job, versionNumber }]
  })
  const billed = mine
    .filter(({ job }) => job.status === 'succeeded' && job.result?.jsonKept === true)
    // The highest version; of its jobs, the newest (the sort keeps the list's order for ties).
    .sort((a, b) => b.versionNumber - a.versionNumber)[0]
  const base = {
    itemId: cloud.itemId,
    fileName: cloud.fileName,
    folderId: cloud.folderId ?? billed?.job.fileFolderId ?? mine[0]?.job.fileFolderId ?? null,
    newestVersionNumber: cloud.newestVersionNumber,
    newestStorageId: cloud.newestStorageId,
  }
  const after = (version: number) => mine.filter((one) => one.versionNumber > version)
  const active = (list: typeof mine) =>
    list.some(({ job }) => job.status === 'queued' || job.status === 'running')

  if (billed) {
    const newer = after(billed.versionNumber)
    const isNewest = billed.versionNumber >= (cloud.newestVersionNumber ?? 0)
    return {
      job: billed.job,
      drawing: {
        ...base,
        versionNumber: billed.versionNumber,
        jobId: billed.job.id,
        state: isNewest ? 'billed' : active(newer) ? 'extracting' : 'newer-version',
        ...(isNewest ? {} : { reason: newerReason(cloud, newer) }),
      },
    }
  }
  const none = { ...base, versionNumber: null, jobId: null }
  if (active(mine)) return { drawing: { ...none, state: 'extracting' } }
  const failed = mine.find(({ job }) => job.status === 'failed')
  if (failed) {
    return {
      drawing: {
        ...none,
        jobId: failed.job.id,
        state: 'failed',
        reason: failed.job.error ?? 'The extraction failed.',
      },
    }
  }
  return { drawing: { ...none, state: 'no-bill' } }
}

function newerReason(cloud: CloudDrawing, newer: { job: JobRecord }[]): string {
  const failure = newer.find(({ job }) => job.status === 'failed')?.job.error
  const version = `Version ${cloud.newestVersionNumber} has no bill yet`
  return failure ? `${version}: its extraction failed (${failure})` : `${version}.`
}
