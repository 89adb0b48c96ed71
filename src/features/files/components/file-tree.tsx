import { useQueryClient } from '@tanstack/react-query'
import {
  type KeyboardEvent,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react'
import { type NodeApi, Tree, type TreeApi } from 'react-arborist'
import { nodeId, parentOf, type TreeNode } from '../api/tree-nodes'
import { loadChildren, reloadChildren, treeQueries } from '../api/tree-queries'
import { openPath, type TreePath } from '../utils/open-path'
import { findNode, mergeChildren, updateNode } from '../utils/tree-data'
import { TreeRow, TreeRowFrame } from './tree-row'

export const ROW_HEIGHT = 32

export type FileTreeHandle = {
  /**
   * A folder's or an item's children changed on the server: forget the cached copy and, when the
   * tree has them loaded, load them again and merge them in.
   */
  refresh(kind: 'folder' | 'item', projectId: string, resourceId: string): void
  /**
   * Opens hub → project → folders through the tree's own queries and selects the item (see
   * utils/open-path.ts). Resolves true when the target was selected.
   */
  openPath(path: TreePath): Promise<boolean>
}

type Props = {
  /** The hubs, loaded by the route. */
  initialNodes: TreeNode[]
  onSelect(node: TreeNode | null): void
  ref?: Ref<FileTreeHandle>
}

/** 65vh in pixels: react-arborist needs a number. */
function useTreeHeight(): number {
  const [height, setHeight] = useState(() => Math.round(window.innerHeight * 0.65))
  useEffect(() => {
    const onResize = () => setHeight(Math.round(window.innerHeight * 0.65))
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])
  return height
}

export function FileTree({ initialNodes, onSelect, ref }: Props) {
  const queryClient = useQueryClient()
  const treeRef = useRef<TreeApi<TreeNode>>(null)
  const [data, setData] = useState(initialNodes)
  // The tree data as last changed: every change goes through `commit`, so the async loads below
  // always build on the latest data without making the callbacks change identity.
  const dataRef = useRef(data)
  const onSelectRef = useRef(onSelect)
  onSelectRef.current = onSelect
  const height = useTreeHeight()

  const loader = useMemo(() => {
    // Nodes to load again once their running load is done.
    const reloadAfterLoad = new Set<string>()
    // Running loads by node id, so that a second open waits for the same load.
    const loads = new Map<string, Promise<void>>()
    const commit = (next: TreeNode[]) => {
      dataRef.current = next
      setData(next)
    }

    // Puts a node's loaded children in place, keeping what the tree knew of those still there.
    const fill = (id: string, fresh: TreeNode[]) => {
      let before: TreeNode[] = []
      const next = updateNode(dataRef.current, id, (n) => {
        before = n.children ?? []
        return { ...n, loading: false, children: mergeChildren(n.children, fresh) } as TreeNode
      })
      // The node went away meanwhile.
      if (next === dataRef.current) return
      commit(next)
      const tree = treeRef.current
      // A new node the tree remembers as open (it was there before) gets its children now.
      const known = new Set(before.map((n) => n.id))
      for (const n of fresh) if (!known.has(n.id) && tree?.isOpen(n.id)) void expand(n.id)
      // The selection stays while its node exists (with its fresh data), else it is cleared.
      const [selectedId] = tree?.selectedIds ?? []
      if (selectedId === undefined) return
      const selected = findNode(dataRef.current, selectedId)
      if (!selected) tree?.deselectAll()
      onSelectRef.current(selected ?? null)
    }

    /** Loads a node's children unless it has some; resolves once they are in the tree. */
    const expand = (id: string): Promise<void> => {
      const running = loads.get(id)
      if (running) return running
      const node = findNode(dataRef.current, id)
      const parent = node && parentOf(node)
      // A node that already has children is never reloaded; versions are leaves.
      if (!node || !parent || (node.children && node.children.length > 0)) return Promise.resolve()
      commit(updateNode(dataRef.current, id, (n) => ({ ...n, loading: true })))
      const load = loadChildren(queryClient, parent).then((children) => {
        loads.delete(id)
        fill(id, children)
        if (reloadAfterLoad.delete(id)) reload(id)
      })
      loads.set(id, load)
      return load
    }

    /** Loads a node's children again past the cache (a failed load leaves them as they were). */
    const refetch = async (id: string): Promise<void> => {
      const node = findNode(dataRef.current, id)
      const parent = node && parentOf(node)
      if (!parent) return
      const fresh = await reloadChildren(queryClient, parent)
      if (fresh) fill(id, fresh)
    }

    const reload = (id: string) => {
      const node = findNode(dataRef.current, id)
      if (!node) return
      // The running load may answer from before the change.
      if (loads.has(id)) reloadAfterLoad.add(id)
      // Never loaded and closed: its next expand loads it fresh.
      else if (node.children?.length || treeRef.current?.isOpen(id)) void refetch(id)
    }

    return { expand, refetch, reload }
  }, [queryClient])

  // Every open goes through here: clicks, arrows and arborist's own keys.
  const onToggle = useCallback(
    (id: string) => {
      if (treeRef.current?.isOpen(id)) void loader.expand(id)
    },
    [loader],
  )

  const handleSelect = useCallback((nodes: NodeApi<TreeNode>[]) => {
    onSelectRef.current(nodes[0]?.data ?? null)
  }, [])

  useImperativeHandle(
    ref,
    () => ({
      refresh(kind, projectId, resourceId) {
        void queryClient.invalidateQueries({
          queryKey: treeQueries.partialKey(kind, projectId, resourceId),
        })
        loader.reload(nodeId(kind, resourceId))
      },
      openPath(path) {
        const tree = treeRef.current
        if (!tree) return Promise.resolve(false)
        const { expand, refetch } = loader
        return openPath(path, { tree, data: () => dataRef.current, expand, refetch })
      },
    }),
    [queryClient, loader],
  )

  // Enter and Space select the focused row (arborist would rename, or toggle a folder).
  const onKeyDownCapture = useCallback((e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return
    const tree = treeRef.current
    const focused = tree?.focusedNode
    if (!tree || !focused) return
    e.preventDefault()
    e.stopPropagation()
    tree.select(focused)
  }, [])

  return (
    <div
      className="h-[65vh] rounded border border-slate-200 bg-white"
      onKeyDownCapture={onKeyDownCapture}
    >
      <Tree<TreeNode>
        ref={treeRef}
        data={data}
        aria-label="ACC files"
        rowHeight={ROW_HEIGHT}
        height={height}
        width="100%"
        indent={18}
        openByDefault={false}
        disableMultiSelection
        disableDrag
        disableDrop
        disableEdit
        onToggle={onToggle}
        onSelect={handleSelect}
        renderRow={TreeRowFrame}
      >
        {TreeRow}
      </Tree>
    </div>
  )
}
