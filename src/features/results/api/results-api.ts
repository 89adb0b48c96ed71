import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { type Boq, BoqSchema } from '../../../../contract/boq'
import { type Job, JobSchema } from '../../../../contract/jobs'
import { PricedJobSchema } from '../../../../contract/takeoff-rules-api'
import { api, apiUrl } from '../../../lib/api-client'
import { isActive } from '../../../lib/job-words'

export type { Boq, Job }

/** How often a result page asks again about a job still queued or running. */
export const JOB_POLL_MS = 1000

/** An API path the server gave ('/api/…') as the client's relative path ('api/…'). */
const relative = (path: string) => path.replace(/^\/+/, '')

/** Query keys and fetchers of the results feature, general → specific. */
export const resultQueries = {
  all: () => ['results'] as const,
  /** One job, asked again every second until it has finished. */
  job: (jobId: string) =>
    queryOptions({
      queryKey: [...resultQueries.all(), 'job', jobId] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          JobSchema,
          await api.get(`api/boq/jobs/${encodeURIComponent(jobId)}`, { signal }).json(),
        ),
      refetchInterval: (query) =>
        query.state.data && isActive(query.state.data) ? JOB_POLL_MS : false,
    }),
  /** The bill a succeeded job kept (its `result.jsonUrl`), checked against the contract. */
  bill: (jobId: string, jsonUrl: string) =>
    queryOptions({
      queryKey: [...resultQueries.all(), 'bill', jobId] as const,
      queryFn: async ({ signal }): Promise<Boq> =>
        v.parse(BoqSchema, await api.get(relative(jsonUrl), { signal }).json()),
      // A finished job's bill never changes.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** Every job's priced bill: what a save of a project's rules makes stale. */
  pricedAll: () => [...resultQueries.all(), 'priced'] as const,
  /** A succeeded job priced with its project's saved rules (a POST that keeps nothing). */
  priced: (jobId: string) =>
    queryOptions({
      queryKey: [...resultQueries.pricedAll(), jobId] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          PricedJobSchema,
          await api.post(`api/boq/jobs/${encodeURIComponent(jobId)}/price`, { signal }).json(),
        ),
      // Priced once per showing of the job, not on every show of the tab: a save of the project's
      // rules invalidates every priced bill (`pricedAll`), which is then priced again.
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/** The downloads of a succeeded job's bill, as absolute URLs. */
export function resultDownloads(result: NonNullable<Job['result']>) {
  return {
    xlsx: apiUrl(result.xlsxUrl),
    csv: apiUrl(result.csvUrl),
    json: result.jsonUrl === null ? null : apiUrl(result.jsonUrl),
  }
}
