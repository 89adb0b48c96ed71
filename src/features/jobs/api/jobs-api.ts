import { type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  type ExtractRequest,
  type Job,
  JobListSchema,
  JobSchema,
  type JobStatus,
} from '#contract/jobs.ts'
import { api } from '../../../lib/api-client'
import { isActive } from '../../../lib/job-words'

export type { ExtractRequest, Job, JobStatus }

/**
 * Where a succeeded job wrote its file, for opening it in the tree: the hub and the folder chain
 * when the server knew them (null otherwise), the folder, and the written item.
 */
export type JobLocation = {
  hubId: string | null
  projectId: string
  /** Folder ids from the project's top folder down to `folderId`; null when not known. */
  folderPath: string[] | null
  folderId: string
  itemId: string
}

export function locationOf(job: Job): JobLocation | null {
  if (!job.result) return null
  return {
    hubId: job.folder.hubId,
    projectId: job.projectId,
    folderPath: job.folder.path,
    folderId: job.fileFolderId,
    itemId: job.result.itemId,
  }
}

export const POLL_INTERVAL_MS = 1000
/** How often the list is asked again, nothing running, while watched folders may start jobs. */
export const WATCHING_POLL_INTERVAL_MS = 5000

// Module-level so Query keeps the selected list while the answer is unchanged.
function selectJobs(body: { data: Job[] }): Job[] {
  return body.data
}

/** Query keys and fetchers of the jobs feature, general → specific. */
export const jobsQueries = {
  all: () => ['jobs'] as const,
  /** `watching`: the person watches folders, whose new versions start jobs by themselves. */
  list: ({ watching = false }: { watching?: boolean } = {}) =>
    queryOptions({
      queryKey: [...jobsQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) =>
        v.parse(JobListSchema, await api.get('api/boq/jobs', { signal }).json()),
      select: selectJobs,
      // Poll while a job is queued or running; when none is, only while a watch may start one.
      refetchInterval: (query) =>
        query.state.data?.data?.some(isActive)
          ? POLL_INTERVAL_MS
          : watching
            ? WATCHING_POLL_INTERVAL_MS
            : false,
    }),
}

/** An accepted extraction: the job when the answer is one, else the id the answer names, if any. */
export type AcceptedExtraction = { job: Job | null; jobId: string | null }

/**
 * POST extract. Any 2xx answer is an accepted extraction, whatever its body: the specification
 * does not say what it is, and backends other than this one answer `{id, status}`, plain text or
 * nothing. A non-2xx answer throws ky's HTTPError, whose body is the message to show.
 */
export async function startExtraction(body: ExtractRequest): Promise<AcceptedExtraction> {
  const answer = parsedJson(await api.post('api/boq/extract', { json: body }).text())
  const job = v.safeParse(JobSchema, answer)
  if (job.success) return { job: job.output, jobId: job.output.id }
  const id = (answer as { id?: unknown } | null)?.id
  return { job: null, jobId: typeof id === 'string' ? id : null }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * Puts a job the server just accepted at the top of the cached list (when the answer was a job),
 * then refreshes the list.
 */
export async function rememberJob(queryClient: QueryClient, job: Job | null): Promise<void> {
  const key = jobsQueries.list().queryKey
  if (job) {
    queryClient.setQueryData(key, (old) => {
      const others = (old?.data ?? []).filter((j) => j.id !== job.id)
      return { data: [job, ...others] }
    })
  }
  await queryClient.invalidateQueries({ queryKey: key })
}
