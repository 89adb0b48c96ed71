import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type DragEvent,
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
import {
  type EmptyFolderHint,
  type FolderNode,
  nodeId,
  parentOf,
  type TreeNode,
  type TreeRowData,
} from '../api/tree-nodes'
import { reloadChildren, treeQueries, tryLoadChildren } from '../api/tree-queries'
import { type Uploaded, type UploadTarget, uploadQueries } from '../api/upload-api'
import { openPath, type TreePath } from '../utils/open-path'
import { findNode, mergeChildren, updateNode } from '../utils/tree-data'
import { EMPTY_FOLDER_HINT, uploadNote, uploadTargetOf } from '../utils/upload-target'
import { carriesFiles, RowDropContext, TreeRow, TreeRowFrame } from './tree-row'
import { UploadBar } from './upload-bar'
import { useUploadQueue } from './use-upload-queue'

export const ROW_HEIGHT = 32

export type FileTreeHandle = {
  /**
   * A folder's or an item's children changed on the server: forget the cached copy and, when the
   * tree has them loaded, load them again and merge them in.
   */
  refresh(kind: 'folder' | 'item', projectId: string, resourceId: string): void
  /**
   * Opens hub → project → folders through the tree's own queries and selects the item (see
   * utils/open-path.ts). Resolves true when the target was selected (or, with `select: false`,
   * scrolled into view).
   */
  openPath(path: TreePath): Promise<boolean>
}

type Props = {
  /** The hubs, loaded by the route. */
  initialNodes: TreeNode[]
  onSelect(node: TreeNode | null): void
  ref?: Ref<FileTreeHandle>
}

const hints = new WeakMap<FolderNode, EmptyFolderHint[]>()

/**
 * A row's children as the tree shows them when uploads are offered: an open folder that loaded
 * empty shows a hint line. Module-level, so its identity never changes.
 */
function childrenWithHint(row: TreeRowData): readonly TreeRowData[] | null {
  if (row.kind !== 'folder' || !row.loaded || row.children.length > 0) return row.children
  let hint = hints.get(row)
  if (!hint) {
    hint = [
      { kind: 'hint', id: `hint:${row.id}`, name: EMPTY_FOLDER_HINT, folder: row, children: null },
    ]
    hints.set(row, hint)
  }
  return hint
}

/** A file dropped beside the rows must not make the browser open it in place of the app. */
function refuseStrayDrop(e: DragEvent) {
  // A row that takes the files has handled the event already.
  if (!carriesFiles(e) || e.isDefaultPrevented()) return
  e.preventDefault()
  e.dataTransfer.dropEffect = 'none'
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
  const treeRef = useRef<TreeApi<TreeRowData>>(null)
  const [data, setData] = useState(initialNodes)
  // The tree data as last changed: every change goes through `commit`, so the async loads below
  // always build on the latest data without making the callbacks change identity.
  const dataRef = useRef(data)
  const [selected, setSelected] = useState<TreeNode | null>(null)
  const onSelectRef = useRef(onSelect)
  onSelectRef.current = onSelect
  // The selection goes to the page, and to the upload button here.
  const select = useCallback((node: TreeNode | null) => {
    setSelected(node)
    onSelectRef.current(node)
  }, [])
  const height = useTreeHeight()
  // Local mode only: the server says whether it takes uploads.
  const canUpload = useQuery(uploadQueries.availability()).data === true

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
    const fill = (id: string, fresh: TreeNode[], loaded = true) => {
      let before: TreeNode[] = []
      const next = updateNode(dataRef.current, id, (n) => {
        before = n.children ?? []
        const children = mergeChildren(n.children, fresh)
        return { ...n, loading: false, loaded: loaded || n.loaded, children } as TreeNode
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
      const stillThere = findNode(dataRef.current, selectedId)
      if (!stillThere) tree?.deselectAll()
      select(stillThere ?? null)
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
      // A failed load (logged) shows the node empty, but not as known to be empty.
      const load = tryLoadChildren(queryClient, parent).then((children) => {
        loads.delete(id)
        fill(id, children ?? [], children !== null)
        if (reloadAfterLoad.delete(id)) void reload(id)
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

    const reload = async (id: string): Promise<void> => {
      const node = findNode(dataRef.current, id)
      if (!node) return
      // The running load may answer from before the change.
      if (loads.has(id)) reloadAfterLoad.add(id)
      // Never loaded and closed: its next expand loads it fresh.
      else if (node.children?.length || treeRef.current?.isOpen(id)) await refetch(id)
    }

    return { expand, refetch, reload }
  }, [queryClient, select])

  const openPathInTree = useCallback(
    (path: TreePath): Promise<boolean> => {
      const tree = treeRef.current
      if (!tree) return Promise.resolve(false)
      const { expand, refetch } = loader
      return openPath(path, { tree, data: () => dataRef.current, expand, refetch })
    },
    [loader],
  )

  // After an upload: the folder (and, for a next version, the item's versions) load again
  // through their queries, and the folder opens with the uploaded item in view. The selection
  // stays, so that the next upload goes where the one before went (into the folder, not as a
  // version of the drawing just added).
  const showUploaded = useCallback(
    async (target: UploadTarget, uploaded: Uploaded) => {
      const { hubId, projectId, folderId } = target
      const { itemId } = uploaded
      // Stale from now on; what the tree shows loads again below, the rest on its next open.
      await Promise.all([
        queryClient.invalidateQueries({
          queryKey: treeQueries.partialKey('folder', projectId, folderId),
          refetchType: 'none',
        }),
        queryClient.invalidateQueries({
          queryKey: treeQueries.partialKey('item', projectId, itemId),
          refetchType: 'none',
        }),
      ])
      await loader.reload(nodeId('folder', folderId))
      void loader.reload(nodeId('item', itemId))
      await openPathInTree({ hubId, projectId, folderId, itemId, select: false })
    },
    [queryClient, loader, openPathInTree],
  )
  const uploads = useUploadQueue(showUploaded)
  const { enqueue } = uploads
  const dropFiles = useCallback(
    (row: TreeRowData, files: File[]) => {
      const target = uploadTargetOf(dataRef.current, row.kind === 'hint' ? row.folder.id : row.id)
      if (target) enqueue(target, files)
    },
    [enqueue],
  )
  const selectedTarget = useMemo(
    () => (selected ? uploadTargetOf(data, selected.id) : null),
    [data, selected],
  )

  // Every open goes through here: clicks, arrows and arborist's own keys.
  const onToggle = useCallback(
    (id: string) => {
      if (treeRef.current?.isOpen(id)) void loader.expand(id)
    },
    [loader],
  )

  // A hint line is no node: selecting it selects nothing.
  const handleSelect = useCallback(
    (nodes: NodeApi<TreeRowData>[]) => {
      const row = nodes[0]?.data
      select(row && row.kind !== 'hint' ? row : null)
    },
    [select],
  )

  useImperativeHandle(
    ref,
    () => ({
      refresh(kind, projectId, resourceId) {
        void queryClient.invalidateQueries({
          queryKey: treeQueries.partialKey(kind, projectId, resourceId),
        })
        void loader.reload(nodeId(kind, resourceId))
      },
      openPath: openPathInTree,
    }),
    [queryClient, loader, openPathInTree],
  )

  // Enter and Space select the focused row (arborist would rename, or toggle a folder).
  const onKeyDownCapture = useCallback((e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return
    const tree = treeRef.current
    const focused = tree?.focusedNode
    if (!tree || !focused) return
    e.preventDefault()
    e.stopPropagation()
    if (focused.data.kind !== 'hint') tree.select(focused)
  }, [])

  const tree = (
    <div
      className="h-[65vh] rounded border border-slate-200 bg-white"
      onKeyDownCapture={onKeyDownCapture}
      {...(canUpload ? { onDragOver: refuseStrayDrop, onDrop: refuseStrayDrop } : {})}
    >
      <Tree<TreeRowData>
        ref={treeRef}
        data={data}
        childrenAccessor={canUpload ? childrenWithHint : undefined}
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
  // The same element tree either way (a change of shape would mount the tree anew): in Autodesk
  // mode, the tree alone, as specified.
  return (
    <RowDropContext value={canUpload ? dropFiles : null}>
      {tree}
      {canUpload ? (
        <UploadBar
          note={uploadNote(selected, selectedTarget)}
          enabled={selectedTarget !== null}
          lines={uploads.lines}
          onFiles={(files) => selectedTarget && enqueue(selectedTarget, files)}
        />
      ) : null}
    </RowDropContext>
  )
}
