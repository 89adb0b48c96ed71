import * as v from 'valibot'
import { type Job, JobSchema } from '#contract/jobs.ts'
import type { DrawingRef } from './drawings.ts'

type Client = (path: string, init?: RequestInit) => Promise<Response>

export interface ExtractBody {
  fileName: string
  fileStorageId: string
  fileFolderId: string
  projectId: string
}

/** The extraction request for a drawing found in the cloud. */
export function extractBody(ref: DrawingRef): ExtractBody {
  return {
    fileName: ref.fileName,
    fileStorageId: ref.storageId,
    fileFolderId: ref.folderId,
    projectId: ref.projectId,
  }
}

export function postExtract(client: Client, body: unknown, headers: Record<string, string> = {}) {
  return client('/api/boq/extract', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Polls GET /api/boq/jobs/{id} until the job is finished; `seen` collects every state observed. */
export async function waitForJob(
  client: Client,
  id: string,
  options: { timeoutMs?: number; seen?: Job[]; intervalMs?: number } = {},
): Promise<Job> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    const response = await client(`/api/boq/jobs/${id}`)
    if (!response.ok) throw new Error(`GET job ${id}: ${response.status} ${await response.text()}`)
    // Every state seen must be the contract's Job: the answers and the app's schema stay one.
    const job = v.parse(JobSchema, await response.json())
    options.seen?.push(job)
    if (job.status === 'succeeded' || job.status === 'failed') return job
    if (Date.now() > deadline) throw new Error(`Job ${id} still ${job.status} after the timeout`)
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25))
  }
}
