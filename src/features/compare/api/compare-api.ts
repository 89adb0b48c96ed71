import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { type ChangeBill, ChangeBillSchema } from '#contract/compare.ts'
import { api, apiUrl } from '../../../lib/api-client'

export type {
  ChangeItem,
  ChangeLine,
  ChangeState,
  TotalChange,
} from '#contract/compare.ts'
export type { ChangeBill }

/** Which two jobs a change bill compares: the older first. */
export type ComparedJobs = { from: string; to: string }

const query = ({ from, to }: ComparedJobs) => new URLSearchParams({ from, to }).toString()

/** Query keys and fetchers of the compare feature, general → specific. */
export const compareQueries = {
  all: () => ['compare'] as const,
  changes: (jobs: ComparedJobs) =>
    queryOptions({
      queryKey: [...compareQueries.all(), jobs.from, jobs.to] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          ChangeBillSchema,
          await api.get(`api/boq/compare?${query(jobs)}`, { signal }).json(),
        ),
      // Two finished jobs' bills never change.
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/** The change bill as a file to download. */
export function changeBillDownload(jobs: ComparedJobs, format: 'xlsx' | 'csv'): string {
  return apiUrl(`/api/boq/compare?${query(jobs)}&format=${format}`)
}
