import { type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  type Watch,
  type WatchList,
  WatchListSchema,
  type WatchRequest,
  WatchSchema,
} from '#contract/watches.ts'
import { api } from '../../../lib/api-client'

export type { Watch, WatchRequest }

/** How often the list is asked again while versions wait for a free place in the job limit. */
export const WAITING_POLL_MS = 10_000

// Module-level so Query keeps the selected list while the answer is unchanged.
function selectWatches(body: WatchList): Watch[] {
  return body.data
}

/** Query keys and fetchers of the watches feature, general → specific. */
export const watchesQueries = {
  all: () => ['watches'] as const,
  list: () =>
    queryOptions({
      queryKey: [...watchesQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) =>
        v.parse(WatchListSchema, await api.get('api/boq/watches', { signal }).json()),
      select: selectWatches,
      // Waiting versions start as places free up: follow them; else a watch changes rarely
      // (paused, allowed again elsewhere), so a look when the person comes back is enough.
      refetchInterval: (query) =>
        query.state.data?.data.some((watch) => watch.waiting > 0) ? WAITING_POLL_MS : false,
      refetchOnWindowFocus: true,
    }),
}

/** POST a watch; a refusal throws ky's HTTPError, whose body is the message to show. */
export async function startWatching(body: WatchRequest): Promise<Watch> {
  return v.parse(WatchSchema, await api.post('api/boq/watches', { json: body }).json())
}

export async function stopWatching(id: string): Promise<void> {
  await api.delete(`api/boq/watches/${encodeURIComponent(id)}`)
}

/** Puts a new watch at the top of the cached list (newest first), then refreshes the list. */
export async function rememberWatch(queryClient: QueryClient, watch: Watch): Promise<void> {
  const key = watchesQueries.list().queryKey
  queryClient.setQueryData(key, (old) => ({
    data: [watch, ...(old?.data ?? []).filter((w) => w.id !== watch.id)],
  }))
  await queryClient.invalidateQueries({ queryKey: key })
}

/** Takes a stopped watch out of the cached list, then refreshes the list. */
export async function forgetWatch(queryClient: QueryClient, id: string): Promise<void> {
  const key = watchesQueries.list().queryKey
  queryClient.setQueryData(key, (old) => old && { data: old.data.filter((w) => w.id !== id) })
  await queryClient.invalidateQueries({ queryKey: key })
}
