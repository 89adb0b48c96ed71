import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { type Boq, BoqSchema } from '#contract/boq.ts'
import { type Job, JobSchema, type PricedWith } from '#contract/jobs.ts'
import {
  ClassificationDocumentSchema,
  PricedJobSchema,
  type RepricedJob,
  RepricedJobSchema,
  RulesDocumentSchema,
} from '#contract/takeoff-rules-api.ts'
import { api, apiUrl } from '../../../lib/api-client'
import { isActive } from '../../../lib/job-words'

export type { Boq, Job, PricedWith, RepricedJob }

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
  /**
   * The bill a succeeded job kept (its `result.jsonUrl`), checked against the contract: its
   * measured bill and its bill of record (`priced`).
   */
  bill: (jobId: string, jsonUrl: string) =>
    queryOptions({
      queryKey: [...resultQueries.all(), 'bill', jobId] as const,
      queryFn: async ({ signal }): Promise<Boq> =>
        v.parse(BoqSchema, await api.get(relative(jsonUrl), { signal }).json()),
      // A finished job's bill changes only when it is re-priced, which invalidates it.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** Every job's priced bill: what a save of a project's rules makes stale. */
  pricedAll: () => [...resultQueries.all(), 'priced'] as const,
  /**
   * The versions of a project's saved rules and classification now (0: none saved), to tell a
   * bill of record priced with older ones. Under `pricedAll`: a save asks again.
   */
  projectTables: (projectId: string) =>
    queryOptions({
      queryKey: [...resultQueries.pricedAll(), 'project', projectId] as const,
      queryFn: async ({ signal }): Promise<PricedWith> => {
        const base = `api/boq/projects/${encodeURIComponent(projectId)}`
        const [rules, classification] = await Promise.all([
          api.get(`${base}/rules`, { signal }).json(),
          api.get(`${base}/classification`, { signal }).json(),
        ])
        return {
          rulesVersion: v.parse(RulesDocumentSchema, rules).version,
          classificationVersion: v.parse(ClassificationDocumentSchema, classification).version,
        }
      },
    }),
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

/**
 * Re-prices a succeeded job with its project's saved rules: its new bill of record, its
 * workbook written back beside the drawing as the result's next version.
 */
export async function repriceJob(jobId: string): Promise<RepricedJob> {
  return v.parse(
    RepricedJobSchema,
    await api
      .post(`api/boq/jobs/${encodeURIComponent(jobId)}/reprice`, { json: { writeBack: true } })
      .json(),
  )
}

/** The downloads of a succeeded job's bill, as absolute URLs. */
export function resultDownloads(result: NonNullable<Job['result']>) {
  return {
    xlsx: apiUrl(result.xlsxUrl),
    csv: apiUrl(result.csvUrl),
    json: result.jsonUrl === null ? null : apiUrl(result.jsonUrl),
  }
}
