import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { forgetWatch, stopWatching, type Watch, watchesQueries } from '../api/watches-api'

/** The user's watches by the folder each watches. */
export function useWatchedFolders(): ReadonlyMap<string, Watch> {
  const { data } = useQuery(watchesQueries.list())
  return useMemo(() => new Map((data ?? []).map((watch) => [watch.fileFolderId, watch])), [data])
}

/** DELETE a watch, then the list without it. */
export function useStopWatching() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (watch: Watch) => stopWatching(watch.id),
    onSuccess: (_, watch) => forgetWatch(queryClient, watch.id),
  })
}
