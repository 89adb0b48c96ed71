import { type QueryClient, queryOptions } from '@tanstack/react-query'
import type { ExtractUnits } from '../../../../server/jobs/extract-units'
import { api } from '../../../lib/api-client'

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** A BOQ extraction job as the server answers it. */
export type Job = {
  id: string
  status: JobStatus
  fileName: string
  projectId: string
  fileFolderId: string
  fileStorageId: string
  /** The bill's units the job was asked with; null (or absent) when it follows the drawing. */
  units?: ExtractUnits | null
  createdAt: string
  updatedAt: string
  progress?: number
  error?: string
  result?: {
    fileName: string
    itemId: string
    versionNumber: number
    xlsxUrl: string
    csvUrl: string
  }
}

/** The body of POST /api/boq/extract: the four fields, and `units` only when the person chose. */
export type ExtractRequest = {
  fileName: string
  fileStorageId: string
  fileFolderId: string
  projectId: string
  units?: ExtractUnits
}

export const POLL_INTERVAL_MS = 1000

export function isActive(job: Job): boolean {
  return job.status === 'queued' || job.status === 'running'
}

// Module-level so Query keeps the selected list while the answer is unchanged.
function selectJobs(body: { data: Job[] }): Job[] {
  return Array.isArray(body?.data) ? body.data : []
}

/** Query keys and fetchers of the jobs feature, general → specific. */
export const jobsQueries = {
  all: () => ['jobs'] as const,
  list: () =>
    queryOptions({
      queryKey: [...jobsQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => api.get('api/boq/jobs', { signal }).json<{ data: Job[] }>(),
      select: selectJobs,
      // Poll while a job is queued or running; stop when none is.
      refetchInterval: (query) =>
        query.state.data?.data?.some(isActive) ? POLL_INTERVAL_MS : false,
    }),
}

export async function startExtraction(body: ExtractRequest): Promise<Job> {
  return api.post('api/boq/extract', { json: body }).json<Job>()
}

/** Puts a job the server just accepted at the top of the cached list, then refreshes the list. */
export async function rememberJob(queryClient: QueryClient, job: Job): Promise<void> {
  const key = jobsQueries.list().queryKey
  queryClient.setQueryData(key, (old) => {
    const others = (old?.data ?? []).filter((j) => j.id !== job.id)
    return { data: [job, ...others] }
  })
  await queryClient.invalidateQueries({ queryKey: key })
}
