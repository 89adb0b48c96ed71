import { errorText } from '../../../lib/http-errors'
import type { TreeNode } from '../api/tree-nodes'
import type { Uploaded, UploadTarget } from '../api/upload-api'
import { pathTo } from './tree-data'

/** What an open, loaded, empty folder says when drawings can be uploaded into it. */
export const EMPTY_FOLDER_HINT =
  'No drawings here yet. Drop .dwg files onto this folder, or use Upload drawing…'

/**
 * Where drawings dropped onto node `id` (or uploaded with it selected) go: into a folder as new
 * items (or next versions, for names already there); onto an item, or one of its versions, as
 * that item's next version, in the item's folder. Null for hubs, projects and what is not loaded.
 */
export function uploadTargetOf(nodes: readonly TreeNode[], id: string): UploadTarget | null {
  const path = pathTo(nodes, id) ?? []
  const node = path.at(-1)
  // The item and the folder it sits in, from the node up.
  const [item, folder] =
    node?.kind === 'folder'
      ? [undefined, node]
      : node?.kind === 'item'
        ? [node, path.at(-2)]
        : node?.kind === 'version'
          ? [path.at(-2), path.at(-3)]
          : []
  if (!node || folder?.kind !== 'folder') return null
  const into = {
    hubId: folder.hubId,
    projectId: folder.projectId,
    folderId: folder.resourceId,
    folderName: folder.name,
  }
  if (node.kind === 'folder') return into
  if (item?.kind !== 'item') return null
  return { ...into, itemId: item.resourceId, itemName: item.name }
}

/** What the upload button does with the selection, or why it cannot (one short line). */
export function uploadNote(selected: TreeNode | null, target: UploadTarget | null): string {
  if (target) {
    return target.itemId
      ? `Uploads the next version of ${target.itemName}.`
      : `Uploads into ${target.folderName}.`
  }
  if (selected === null || selected.kind === 'folder' || selected.kind === 'item') {
    return 'Select a folder to upload drawings into (or a drawing, for its next version).'
  }
  if (selected.kind === 'version') return 'Select the drawing or its folder to upload into.'
  if (selected.kind === 'bills' || selected.kind === 'bill') {
    return 'Select a folder to upload drawings into: project bills hold none.'
  }
  return `Select a folder to upload into: a ${selected.kind} holds folders, not drawings.`
}

/**
 * Whether the user is asked before `fileName` is uploaded into `target`: when it would become the
 * next version of an item of another name. A file of the item's own name, or one going into a
 * folder, goes without a question.
 */
export function asksFirst(target: UploadTarget, fileName: string): boolean {
  return target.itemId !== undefined && fileName !== target.itemName
}

/** The number an item's next version gets: one past the highest it has (undefined: none known). */
export function nextVersionNumber(versions: readonly TreeNode[] | null): number | undefined {
  let highest: number | undefined
  for (const node of versions ?? []) {
    if (node.kind !== 'version' || node.versionNumber === undefined) continue
    highest = Math.max(highest ?? 0, node.versionNumber)
  }
  return highest === undefined ? undefined : highest + 1
}

/** The question before such an upload: "Upload plan-B.dwg as version 3 of plan.dwg?" */
export function versionQuestion(
  fileName: string,
  target: UploadTarget,
  versionNumber: number | undefined,
): string {
  const version = versionNumber === undefined ? 'the next version' : `version ${versionNumber}`
  return `Upload ${fileName} as ${version} of ${target.itemName ?? 'the drawing'}?`
}

/** The line of a finished upload: "Uploaded plan.dwg as version 2." */
export function uploadedLine(uploaded: Uploaded): string {
  return `Uploaded ${uploaded.fileName} as version ${uploaded.versionNumber}.`
}

/** The line of a refused upload: the server's reason, after the file's name unless it names it. */
export function refusedLine(fileName: string, error: unknown): string {
  const reason = errorText(error)
  return reason.includes(fileName) ? reason : `${fileName}: ${reason}`
}
