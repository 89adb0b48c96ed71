import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import {
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react'
import { type NodeApi, Tree, type TreeApi } from 'react-arborist'
import type {
  CloudNode,
  EmptyFolderHint,
  FolderNode,
  TreeNode,
  TreeRowData,
} from '../api/tree-nodes'
import { refreshChildren, tryLoadChildren } from '../api/tree-queries'
import { type Uploaded, type UploadTarget, uploadQueries } from '../api/upload-api'
import type { TreePath } from '../utils/open-path'
import { findNode } from '../utils/tree-data'
import { treeMemory } from '../utils/tree-memory'
import {
  EMPTY_FOLDER_HINT,
  nextVersionNumber,
  uploadNote,
  uploadTargetOf,
} from '../utils/upload-target'
import { ProjectBillsLink } from './project-bills-link'
import { ProjectLocationsLink } from './project-locations-link'
import { ProjectRulesLink } from './project-rules-link'
import { ProjectSettingsLink } from './project-settings-link'
import { carriesFiles, RowDropContext, RowMarkContext, TreeRow, TreeRowFrame } from './tree-row'
import { UploadBar } from './upload-bar'
import { useTreeData } from './use-tree-data'
import { useUploadQueue } from './use-upload-queue'

export const ROW_HEIGHT = 32

export type FileTreeHandle = {
  /**
   * Opens hub → project → folders through the tree's own queries and selects the item (see
   * utils/open-path.ts). Resolves true when the target was selected (or, with `select: false`,
   * scrolled into view).
   */
  openPath(path: TreePath): Promise<boolean>
}

type Props = {
  /** The hubs, loaded by the route. */
  hubs: TreeNode[]
  /** The cloud node selected (the project's bills are the tree's own: a bill opens its page). */
  onSelect(node: CloudNode | null): void
  /** What a selected folder offers beside Rules… (the page's: watching it). */
  folderActions?(folder: FolderNode): ReactNode
  /** What a row shows at its end (the page's: a watched folder's mark). */
  rowMark?(node: TreeNode): ReactNode
  ref?: Ref<FileTreeHandle>
}

const hints = new WeakMap<FolderNode, EmptyFolderHint[]>()

// Opening a path waits for a click (Show in tree) or an upload: its code loads then.
const loadOpenPath = () => import('../utils/open-path')

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

export function FileTree({ hubs, onSelect, folderActions, rowMark, ref }: Props) {
  const queryClient = useQueryClient()
  const treeRef = useRef<TreeApi<TreeRowData>>(null)
  // What the tree showed when the page was left (another page, Back): it shows that again.
  const memory = treeMemory(queryClient)
  const [shown] = useState(() => ({ ...memory }))
  const { data, dataNow, expand, refetch } = useTreeData(hubs, memory)
  const [selected, setSelected] = useState<TreeNode | null>(null)
  const onSelectRef = useRef(onSelect)
  onSelectRef.current = onSelect
  // The selection goes to the page (a cloud node's), and to the upload button here.
  const select = useCallback((node: TreeNode | null) => {
    setSelected(node)
    onSelectRef.current(node && node.kind !== 'bills' && node.kind !== 'bill' ? node : null)
  }, [])
  const navigate = useNavigate()
  // The remembered selection, until its node shows again (or the user selects another).
  const restoring = useRef(shown.selected)
  const height = useTreeHeight()
  // Local mode only: the server says whether it takes uploads.
  const canUpload = useQuery(uploadQueries.availability()).data === true

  // The selection stays while its node exists (with its fresh data), else it is cleared.
  useEffect(() => {
    const tree = treeRef.current
    const [selectedId] = tree?.selectedIds ?? []
    if (selectedId === undefined) return
    const node = findNode(data, selectedId)
    if (!node) tree?.deselectAll()
    select(node ?? null)
  }, [data, select])

  // The rows scroll back to where they were; the remembered selection is made again once its node
  // is loaded (at once when the cache still holds the way to it).
  useEffect(() => {
    treeRef.current?.scrollToOffset(shown.scrollOffset)
  }, [shown])
  useEffect(() => {
    const tree = treeRef.current
    const id = restoring.current
    if (!tree || id === null || !findNode(data, id)) return
    restoring.current = null
    // A node hidden under a closed one was not in view either: it is left unselected.
    if (tree.get(id)) tree.select(id)
  }, [data])

  const openPathInTree = useCallback(
    (path: TreePath): Promise<boolean> => {
      const tree = treeRef.current
      if (!tree) return Promise.resolve(false)
      // Code that cannot be fetched (an old page after the app was updated) opens nothing.
      return loadOpenPath().then(
        ({ openPath }) => openPath(path, { tree, data: dataNow, expand, refetch }),
        () => false,
      )
    },
    [dataNow, expand, refetch],
  )

  // After an upload: the folder (and, for a next version, the item's versions) load again
  // through their queries, and the folder opens with the uploaded item in view. The selection
  // stays, so that the next upload goes where the one before went (into the folder, not as a
  // version of the drawing just added).
  const showUploaded = useCallback(
    async (target: UploadTarget, uploaded: Uploaded) => {
      const { hubId, projectId, folderId } = target
      const { itemId } = uploaded
      void refreshChildren(queryClient, 'item', projectId, itemId)
      await refreshChildren(queryClient, 'folder', projectId, folderId)
      await openPathInTree({ hubId, projectId, folderId, itemId, select: false })
    },
    [queryClient, openPathInTree],
  )
  // The version an upload onto an item would become, from its versions as loaded now.
  const nextVersion = useCallback(
    async ({ hubId, projectId, itemId }: UploadTarget) => {
      if (itemId === undefined) return undefined
      const parent = { kind: 'item', hubId, projectId, itemId } as const
      return nextVersionNumber(await tryLoadChildren(queryClient, parent))
    },
    [queryClient],
  )
  const uploads = useUploadQueue(showUploaded, nextVersion)
  const { enqueue } = uploads
  const dropFiles = useCallback(
    (row: TreeRowData, files: File[]) => {
      const target = uploadTargetOf(dataNow(), row.kind === 'hint' ? row.folder.id : row.id)
      if (target) enqueue(target, files)
    },
    [dataNow, enqueue],
  )
  const selectedTarget = useMemo(
    () => (selected ? uploadTargetOf(data, selected.id) : null),
    [data, selected],
  )

  // Every open and close goes through here: clicks, arrows, arborist's own keys, openPath.
  const onToggle = useCallback(
    (id: string) => {
      const tree = treeRef.current
      if (!tree) return
      memory.open = { ...tree.openState }
      if (tree.isOpen(id)) void expand(id)
    },
    [expand, memory],
  )

  // A hint line is no node: selecting it selects nothing.
  const handleSelect = useCallback(
    (nodes: NodeApi<TreeRowData>[]) => {
      const row = nodes[0]?.data
      const node = row && row.kind !== 'hint' ? row : null
      // The tree starts with nothing selected: no choice of the user's while one is being restored.
      if (node === null && restoring.current !== null) return
      restoring.current = null
      if (node?.kind === 'bill') {
        // A bill opens its page; the tree keeps what was selected before it.
        void navigate({
          to: '/projects/$projectId/bills/$billId',
          params: { projectId: node.projectId, billId: node.resourceId },
        })
        return
      }
      memory.selected = node?.id ?? null
      select(node)
    },
    [select, memory, navigate],
  )

  const onScroll = useCallback(
    ({ scrollOffset }: { scrollOffset: number }) => {
      memory.scrollOffset = scrollOffset
    },
    [memory],
  )

  useImperativeHandle(ref, () => ({ openPath: openPathInTree }), [openPathInTree])

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
        initialOpenState={shown.open}
        disableMultiSelection
        disableDrag
        disableDrop
        disableEdit
        onToggle={onToggle}
        onSelect={handleSelect}
        onScroll={onScroll}
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
      <RowMarkContext value={rowMark ?? null}>{tree}</RowMarkContext>
      {selected && 'projectId' in selected ? (
        <>
          <ProjectRulesLink projectId={selected.projectId} />
          <ProjectLocationsLink projectId={selected.projectId} />
          <ProjectSettingsLink projectId={selected.projectId} />
          <ProjectBillsLink
            projectId={selected.projectId}
            folder={
              selected.kind === 'folder'
                ? { id: selected.resourceId, name: selected.name }
                : undefined
            }
          />
        </>
      ) : null}
      {selected?.kind === 'folder' ? folderActions?.(selected) : null}
      {canUpload ? (
        <UploadBar
          note={uploadNote(selected, selectedTarget)}
          enabled={selectedTarget !== null}
          lines={uploads.lines}
          question={uploads.question}
          onFiles={(files) => selectedTarget && enqueue(selectedTarget, files)}
        />
      ) : null}
    </RowDropContext>
  )
}
