import type { Job } from '#contract/jobs.ts'
import { postExtract, waitForJob } from '../../server/testing/jobs/jobs-api.ts'
import { type ApiClient, type FoundItem, titleOf, versionsOf } from './api.ts'

/** Extracts the drawing's newest version through the API and waits for the job to succeed. */
export async function extractThroughApi(api: ApiClient, drawing: FoundItem): Promise<Job> {
  const [version] = await versionsOf(api, drawing)
  const storageId = version?.relationships?.storage?.data?.id
  if (!storageId) throw new Error(`No version of ${titleOf(drawing.item)}`)
  const response = await postExtract(api.request, {
    fileName: titleOf(drawing.item),
    fileStorageId: storageId,
    fileFolderId: drawing.folderId,
    projectId: drawing.projectId,
  })
  if (response.status !== 202)
    throw new Error(`Extract: ${response.status} ${await response.text()}`)
  const job = await waitForJob(api.request, ((await response.json()) as Job).id)
  if (job.status !== 'succeeded') throw new Error(`The extraction failed: ${job.error}`)
  return job
}
