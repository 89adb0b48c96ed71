import type { TreeApi } from 'react-arborist'
import { nodeId, type TreeNode, type TreeRowData } from '../api/tree-nodes'
import { ancestorIds, findNode } from './tree-data'

/** A folder to open in the tree, with as much of the way to it as is known. */
export type TreePath = {
  /** The hub; without it, the tree looks for the project among what it has loaded. */
  hubId?: string
  projectId: string
  /** Folder ids from the project's top folder down to `folderId`, when known. */
  folderIds?: string[]
  folderId: string
  /** The item to select in the folder (else the folder itself is selected). */
  itemId?: string
  /** False: the target is scrolled into view and the selection stays as it was. */
  select?: boolean
}

/** What opening a path needs of the file tree. */
export type PathOpener = {
  tree: TreeApi<TreeRowData>
  /** The tree as the query cache holds it now. */
  data(): TreeNode[]
  /** Loads a node's children unless it has some; resolves once they are in the data. */
  expand(id: string): Promise<void>
  /** Loads a node's children again past the cache. */
  refetch(id: string): Promise<void>
}

/**
 * Opens the way to a folder (hub → project → folders), loading each level through `expand`, then
 * selects the item (or the folder) and scrolls to it (or only scrolls, with `select: false`). Without the whole chain it opens what it
 * can: the way to the folder when the tree has it loaded, else the hub and the project, and then
 * the folder if it came with the project (a top folder). Resolves true when the target was
 * selected.
 */
export async function openPath(path: TreePath, opener: PathOpener): Promise<boolean> {
  const { tree, data, expand, refetch } = opener
  const folder = nodeId('folder', path.folderId)
  const project = nodeId('project', path.projectId)
  const known = (): string[] => {
    if (path.hubId && path.folderIds?.length) {
      return [nodeId('hub', path.hubId), project, ...path.folderIds.map((f) => nodeId('folder', f))]
    }
    return (
      ancestorIds(data(), folder) ??
      (path.hubId ? [nodeId('hub', path.hubId), project] : (ancestorIds(data(), project) ?? []))
    )
  }
  // The way as known, then as the tree now has it (the folder may have come with the project).
  for (const way of [known, () => ancestorIds(data(), folder) ?? []]) {
    for (const id of way()) {
      // Each step is in the data once the one before it has loaded.
      if (!findNode(data(), id)) break
      await expand(id)
      tree.open(id)
    }
  }
  if (!findNode(data(), folder)) return false
  let target = path.itemId ? nodeId('item', path.itemId) : folder
  // Written after the folder's answer was cached: load it again, once.
  if (!findNode(data(), target)) await refetch(folder)
  if (!findNode(data(), target)) target = folder
  // The tree shows a node once React has rendered it and its parents are open.
  if (!(await until(() => tree.get(target) !== null))) return false
  if (path.select === false) await tree.scrollTo(target)
  else tree.select(target)
  return target !== folder || !path.itemId
}

/** Resolves true once `check()` holds (looked at every frame or so), false after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 16))
  }
  return true
}
