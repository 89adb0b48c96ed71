import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import type { CloudNode, FolderNode, TreeNode } from '../../features/files/api/tree-nodes'
import { refreshChildren } from '../../features/files/api/tree-queries'
import { FileTree, type FileTreeHandle } from '../../features/files/components/file-tree'
import type { Job, JobLocation } from '../../features/jobs/api/jobs-api'
import { ExtractPanel } from '../../features/jobs/components/extract-panel'
import { JobsPanel } from '../../features/jobs/components/jobs-panel'
import type { ExtractSelection } from '../../features/jobs/utils/extract-rule'
import { readUnitsChoice, unitsToSend } from '../../features/jobs/utils/units-choice'
import { useWatchedFolders } from '../../features/watches/components/use-watches'
import { WatchFolderActions } from '../../features/watches/components/watch-folder-actions'
import { WatchMark } from '../../features/watches/components/watch-mark'
import { WatchesPanel } from '../../features/watches/components/watches-panel'

/** The selected node as Extract BOQ sees it: a version's request, or what else it is. */
function extractSelection(node: CloudNode | null): ExtractSelection | null {
  if (node === null) return null
  if (node.kind !== 'version') return { kind: node.kind, name: node.name }
  return {
    kind: 'version',
    request: {
      fileName: node.displayName,
      fileStorageId: node.storageId,
      fileFolderId: node.fileFolderId,
      projectId: node.projectId,
    },
    stillArriving: node.stillArriving,
  }
}

/** A new watch's bills are made in the units chosen for Extract BOQ (kept as it is chosen). */
const unitsForNewWatch = () => unitsToSend(readUnitsChoice())

/** Watching a selected folder, under the tree. */
function watchFolderActions(folder: FolderNode) {
  return (
    <WatchFolderActions
      folder={{ projectId: folder.projectId, folderId: folder.resourceId }}
      unitsForNewWatch={unitsForNewWatch}
    />
  )
}

/**
 * The file-selection screen: the tree on the left, Extract BOQ, the jobs and the watched folders on
 * the right.
 */
export function FileSelectionPage({ hubs }: { hubs: TreeNode[] }) {
  const tree = useRef<FileTreeHandle>(null)
  // The selected node, whatever its kind, with its href.
  const [selected, setSelected] = useState<CloudNode | null>(null)
  const queryClient = useQueryClient()
  // A watched folder's row shows it is watched.
  const watched = useWatchedFolders()
  const watchMark = useCallback(
    (node: TreeNode) => {
      const watch = node.kind === 'folder' ? watched.get(node.resourceId) : undefined
      return watch ? <WatchMark watch={watch} /> : null
    },
    [watched],
  )
  // An active watch starts jobs by itself: the jobs panel keeps asking.
  const watching = [...watched.values()].some((watch) => watch.state === 'active')
  // The folder the job wrote into loads again wherever the tree shows it.
  const onJobSucceeded = useCallback(
    (job: Job) => {
      void refreshChildren(queryClient, 'folder', job.projectId, job.fileFolderId)
      // A file written again is a new version of an item the tree may show open.
      if (job.result) void refreshChildren(queryClient, 'item', job.projectId, job.result.itemId)
    },
    [queryClient],
  )
  // The jobs feature says where a job wrote; the files feature opens it.
  const onShowInTree = useCallback((location: JobLocation) => {
    void tree.current?.openPath({
      ...(location.hubId ? { hubId: location.hubId } : {}),
      projectId: location.projectId,
      ...(location.folderPath ? { folderIds: location.folderPath } : {}),
      folderId: location.folderId,
      itemId: location.itemId,
    })
  }, [])

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-6">
      <h1 className="text-xl font-semibold text-slate-800">
        Select the file from ACC to extract BOQ
      </h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <div className="min-w-0 flex-1" data-selected-href={selected?.href}>
          <FileTree
            ref={tree}
            hubs={hubs}
            onSelect={setSelected}
            folderActions={watchFolderActions}
            rowMark={watchMark}
          />
        </div>
        <div className="flex w-full flex-col gap-6 md:w-80">
          <ExtractPanel selection={extractSelection(selected)} />
          <JobsPanel
            onJobSucceeded={onJobSucceeded}
            onShowInTree={onShowInTree}
            watching={watching}
          />
          <WatchesPanel />
        </div>
      </div>
    </div>
  )
}
