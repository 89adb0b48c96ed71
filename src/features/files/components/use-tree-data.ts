import {
  type QueryClient,
  type UseQueryResult,
  useQueries,
  useQueryClient,
} from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { parentOf, type TreeNode, type TreeParent } from '../api/tree-nodes'
import { reloadChildren, treeQueries, tryLoadChildren } from '../api/tree-queries'
import { buildTree, type CachedChildren, findNode } from '../utils/tree-data'
import type { TreeMemory } from '../utils/tree-memory'

type Asked = ReadonlyMap<string, TreeParent>

export type TreeData = {
  /** The tree as the last render shows it. */
  data: TreeNode[]
  /** The tree as the query cache holds it now, ahead of the next render. */
  dataNow(): TreeNode[]
  /** Loads a node's children unless it has some; resolves once they are in the cache. */
  expand(id: string): Promise<void>
  /** Loads a node's children again past the cache (a failed load leaves them as they were). */
  refetch(id: string): Promise<void>
}

const cachedOf = (result: UseQueryResult<TreeNode[]>): CachedChildren => ({
  nodes: result.data,
  loading: result.isFetching,
})

const hasData = (queryClient: QueryClient, parent: TreeParent) =>
  queryClient.getQueryData(treeQueries.childrenKey(parent)) !== undefined

/**
 * What the tree asked for when it was last shown, as it comes back: every node whose list the
 * cache still holds, and the open ones, whose lists load again if the cache let them go. A closed
 * node whose list is gone loads when it is opened, as a node never opened does.
 */
function restoredAsked(queryClient: QueryClient, memory: TreeMemory): Asked {
  return new Map(
    [...memory.asked].filter(
      ([id, parent]) => memory.open[id] === true || hasData(queryClient, parent),
    ),
  )
}

/**
 * The file tree's data, read from the query cache: the hubs, and below every node whose children
 * the tree has asked for (opened once, open or closed now) what that node's query holds, watched
 * with `useQueries`. A reload anywhere (a job, an upload) shows as soon as its query has it. What
 * was asked is kept in `memory`, so that the tree comes back as it was after another page.
 */
export function useTreeData(hubs: TreeNode[], memory: TreeMemory): TreeData {
  const queryClient = useQueryClient()
  // Nodes whose children were asked for, by node id, with what they load from. The ref is the
  // same map as the state, ahead of the render that follows a change.
  const [asked, setAsked] = useState<Asked>(() => restoredAsked(queryClient, memory))
  const askedRef = useRef(asked)
  const hubsRef = useRef(hubs)
  hubsRef.current = hubs

  const entries = useMemo(() => [...asked], [asked])
  const combine = useCallback(
    (results: UseQueryResult<TreeNode[]>[]) => {
      const byId = new Map(entries.map(([id], i) => [id, results[i]]))
      return buildTree(hubs, (node) => {
        const result = byId.get(node.id)
        return result && cachedOf(result)
      })
    },
    [entries, hubs],
  )
  const data = useQueries({
    queries: entries.map(([, parent]) => treeQueries.children(parent)),
    combine,
  })

  // Lists that come back without data load as an opened node's do (a failure is logged).
  useEffect(() => {
    memory.asked = askedRef.current
    for (const parent of askedRef.current.values()) {
      if (!hasData(queryClient, parent)) void tryLoadChildren(queryClient, parent)
    }
  }, [queryClient, memory])

  const dataNow = useCallback(
    () =>
      buildTree(hubsRef.current, (node) => {
        const parent = askedRef.current.get(node.id)
        const state =
          parent && queryClient.getQueryState<TreeNode[]>(treeQueries.childrenKey(parent))
        return state && { nodes: state.data, loading: state.fetchStatus === 'fetching' }
      }),
    [queryClient],
  )

  const expand = useCallback(
    async (id: string) => {
      const node = findNode(dataNow(), id)
      const parent = node && parentOf(node)
      // A node that already has children is never reloaded; versions are leaves.
      if (!node || !parent || (node.children && node.children.length > 0)) return
      if (!askedRef.current.has(id)) {
        askedRef.current = new Map(askedRef.current).set(id, parent)
        memory.asked = askedRef.current
        setAsked(askedRef.current)
      }
      // The load starts here; the node's query, watched from the next render, shares it. A failed
      // load (logged) shows the node empty, but not as known to be empty.
      await tryLoadChildren(queryClient, parent)
    },
    [dataNow, queryClient, memory],
  )

  const refetch = useCallback(
    async (id: string) => {
      const node = findNode(dataNow(), id)
      const parent = node && parentOf(node)
      if (parent) await reloadChildren(queryClient, parent)
    },
    [dataNow, queryClient],
  )

  return { data, dataNow, expand, refetch }
}
