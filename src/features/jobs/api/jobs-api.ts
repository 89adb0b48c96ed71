import { type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  type ExtractRequest,
  type Job,
  JobListSchema,
  JobSchema,
  type JobStatus,
} from '../../../../contract/jobs'
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

// Module-level so Query keeps the selected list while the answer is unchanged.
function selectJobs(body: { data: Job[] }): Job[] {
  return body.data
}

/** Query keys and fetchers of the jobs feature, general → specific. */
export const jobsQueries = {
  all: () => ['jobs'] as const,
  list: () =>
    queryOptions({
      queryKey: [...jobsQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) =>
        v.parse(JobListSchema, await api.get('api/boq/jobs', { signal }).json()),
      select: selectJobs,
      // Poll while a job is queued or running; stop when none is.
      refetchInterval: (query) =>
        query.state.data?.data?.some(isActive) ? POLL_INTERVAL_MS : false,
    }),
}

export async function startExtraction(body: ExtractRequest): Promise<Job> {
  return v.parse(JobSchema, await api.post('api/boq/extract', { json: body }).json())
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
