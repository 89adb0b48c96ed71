// How a watch reads for a person, in the tree and in the list of watched folders.
import type { Watch } from '../api/watches-api'

/** The watched folder's name, else its id (a folder the server could not name). */
export function folderTitle(watch: Watch): string {
  return watch.folder.name ?? watch.fileFolderId
}

/** The watch's state as one word or two. */
export function stateWord(watch: Watch): string {
  return watch.state === 'paused' ? 'Watch paused' : 'Watched'
}

/** What a state means, for a title. */
export function stateTitle(watch: Watch): string {
  return watch.state === 'paused'
    ? 'No bills are made for new versions until this is resolved'
    : 'Every new .dwg version in this folder and its subfolders gets its bill by itself'
}

export function waitingWords(waiting: number): string {
  return `${waiting} waiting`
}

export const WAITING_TITLE = 'New versions waiting for one of your running extractions to finish'
