import { isCancelledError, type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { readCloudList } from '#contract/cloud.ts'
import { ProjectBillSchema } from '#contract/project-bills.ts'
import { api } from '../../../lib/api-client'
import {
  projectBillNodes,
  projectBillsNode,
  type TreeNode,
  type TreeParent,
  toChildNodes,
} from './tree-nodes'

const enc = encodeURIComponent

function childrenRequest(parent: TreeParent): {
  path: string
  searchParams?: Record<string, string>
} {
  switch (parent.kind) {
    case 'root':
      return { path: 'api/aps/hubs' }
    case 'hub':
      return { path: `api/aps/hubs/${enc(parent.hubId)}/projects` }
    case 'project':
      return {
        path: `api/aps/hubs/${enc(parent.hubId)}/projects/${enc(parent.projectId)}/contents`,
      }
    case 'folder':
      return {
        path: `api/aps/hubs/${enc(parent.hubId)}/projects/${enc(parent.projectId)}/contents`,
        searchParams: { folder_id: parent.folderId },
      }
    case 'item':
      return {
        path: `api/aps/hubs/${enc(parent.hubId)}/projects/${enc(parent.projectId)}/contents/${enc(parent.itemId)}/versions`,
      }
    case 'bills':
      return { path: `api/boq/projects/${enc(parent.projectId)}/bills` }
  }
}

/**
 * One answer is the whole list (the server follows every page), in either form: a bare array or
 * `{data: [...]}`. A `links.next` beside `data` is not followed.
 */
async function fetchChildren(parent: TreeParent, signal: AbortSignal): Promise<TreeNode[]> {
  const { path, searchParams } = childrenRequest(parent)
  const body = await api.get(path, { searchParams, signal }).json<unknown>()
  if (parent.kind === 'bills') return projectBillNodes(parent, v.parse(BillsSchema, body))
  const nodes = toChildNodes(parent, readCloudList(body))
  // A project's own: its bills, after its top folders.
  return parent.kind === 'project'
    ? [...nodes, projectBillsNode(parent.hubId, parent.projectId)]
    : nodes
}

const BillsSchema = v.array(ProjectBillSchema)

/** Query keys and fetchers of the tree, general → specific: one key per node. */
export const treeQueries = {
  all: () => ['tree'] as const,
  childrenKey: (parent: TreeParent) => [...treeQueries.all(), 'children', parent] as const,
  children: (parent: TreeParent) =>
    queryOptions({
      queryKey: treeQueries.childrenKey(parent),
      queryFn: ({ signal }) => fetchChildren(parent, signal),
      staleTime: 60_000,
      // The tree decides when a node loads (see the loaders below): a failed load is tried again
      // when its node is opened again, and what a node has is not reloaded behind its back.
      retryOnMount: false,
      refetchOnReconnect: false,
    }),
  /** Matches a folder's or an item's children whatever hub it sits in (a job knows no hub). */
  partialKey: (kind: 'folder' | 'item', projectId: string, id: string) =>
    [
      ...treeQueries.all(),
      'children',
      kind === 'folder' ? { kind, projectId, folderId: id } : { kind, projectId, itemId: id },
    ] as const,
  /** Matches a project's bills whatever hub it sits in. */
  billsKey: (projectId: string) =>
    [...treeQueries.all(), 'children', { kind: 'bills', projectId }] as const,
}

/** A failed load is logged; a cancelled one (its tree went away) is not a failure. */
function logFailure(message: string, parent: TreeParent, error: unknown): null {
  if (!isCancelledError(error)) console.error(message, parent, error)
  return null
}

/** Loads a node's children through the cache; null (logged) when that fails. */
export async function tryLoadChildren(
  queryClient: QueryClient,
  parent: TreeParent,
): Promise<TreeNode[] | null> {
  try {
    return await queryClient.fetchQuery(treeQueries.children(parent))
  } catch (error) {
    return logFailure('Could not load the tree node', parent, error)
  }
}

/** Loads a node's children through the cache; a failure is logged and gives an empty list. */
export async function loadChildren(
  queryClient: QueryClient,
  parent: TreeParent,
): Promise<TreeNode[]> {
  return (await tryLoadChildren(queryClient, parent)) ?? []
}

/**
 * Loads a node's children again, past the cached copy; null (logged) when that fails, and the
 * cache keeps what it had.
 */
export async function reloadChildren(
  queryClient: QueryClient,
  parent: TreeParent,
): Promise<TreeNode[] | null> {
  try {
    return await queryClient.fetchQuery({ ...treeQueries.children(parent), staleTime: 0 })
  } catch (error) {
    return logFailure('Could not reload the tree node', parent, error)
  }
}

/**
 * A folder's or an item's children changed on the server (a job or an upload wrote there), in
 * whatever hub it sits: what the tree shows of them (the queries it watches, and loads running)
 * loads again now; any other cached copy is marked stale, so that its next open loads it fresh.
 */
export async function refreshChildren(
  queryClient: QueryClient,
  kind: 'folder' | 'item',
  projectId: string,
  id: string,
): Promise<void> {
  const queryKey = treeQueries.partialKey(kind, projectId, id)
  const shown = queryClient
    .getQueryCache()
    .findAll({ queryKey })
    .filter((query) => query.isActive() || query.state.fetchStatus === 'fetching')
  await queryClient.invalidateQueries({ queryKey, refetchType: 'none' })
  await Promise.all(
    shown.map(async (query) => {
      // The key's last part is the node's TreeParent (see childrenKey).
      const parent = query.queryKey[2] as TreeParent
      // A first load still running may answer from before the change: let it end, then reload.
      const { data, fetchStatus } = query.state
      if (data === undefined && fetchStatus === 'fetching')
        await tryLoadChildren(queryClient, parent)
      await reloadChildren(queryClient, parent)
    }),
  )
}

/**
 * A project's bills changed (one was made): the tree's list of them is marked stale, so that it
 * loads again when the tree shows it next (at once, when it is showing).
 */
export async function projectBillsChanged(
  queryClient: QueryClient,
  projectId: string,
): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: treeQueries.billsKey(projectId) })
}

/** The route loader's part: the hubs. */
export function loadHubs(queryClient: QueryClient): Promise<TreeNode[]> {
  return loadChildren(queryClient, { kind: 'root' })
}
