import { useQueryClient } from '@tanstack/react-query'
import {
  type KeyboardEvent,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
} from 'react'
import { type NodeApi, Tree, type TreeApi } from 'react-arborist'
import { nodeId, parentOf, type TreeNode } from '../api/tree-nodes'
import { loadChildren, treeQueries } from '../api/tree-queries'
import { findNode, updateNode } from '../utils/tree-data'
import { TreeRow, TreeRowFrame } from './tree-row'

export const ROW_HEIGHT = 32

export type FileTreeHandle = {
  /** Forget a folder's children (cache and tree) so its next expand loads them again. */
  refreshFolder(projectId: string, folderId: string): void
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
  // Read by the (stable) callbacks below without making them change identity.
  const dataRef = useRef(data)
  dataRef.current = data
  const onSelectRef = useRef(onSelect)
  onSelectRef.current = onSelect
  const height = useTreeHeight()

  const expand = useCallback(
    (id: string) => {
      const node = findNode(dataRef.current, id)
      const parent = node && parentOf(node)
      // A node that already has children is never reloaded; versions are leaves.
      if (!node || !parent || node.loading || (node.children && node.children.length > 0)) return
      setData((d) => updateNode(d, id, (n) => ({ ...n, loading: true })))
      void loadChildren(queryClient, parent).then((children) => {
        setData((d) => updateNode(d, id, (n) => ({ ...n, loading: false, children }) as TreeNode))
      })
    },
    [queryClient],
  )

  // Every open goes through here: clicks, arrows and arborist's own keys.
  const onToggle = useCallback(
    (id: string) => {
      if (treeRef.current?.isOpen(id)) expand(id)
    },
    [expand],
  )

  const handleSelect = useCallback((nodes: NodeApi<TreeNode>[]) => {
    onSelectRef.current(nodes[0]?.data ?? null)
  }, [])

  useImperativeHandle(
    ref,
    () => ({
      refreshFolder(projectId, folderId) {
        void queryClient.invalidateQueries({ queryKey: treeQueries.folderKey(projectId, folderId) })
        const id = nodeId('folder', folderId)
        if (!findNode(dataRef.current, id)) return
        const next = updateNode(dataRef.current, id, (n) => ({ ...n, children: [] }) as TreeNode)
        dataRef.current = next
        setData(next)
        if (treeRef.current?.isOpen(id)) expand(id)
      },
    }),
    [queryClient, expand],
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
