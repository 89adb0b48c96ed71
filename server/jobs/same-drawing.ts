import type { JobRecord } from './types.ts'

/** What names a job's drawing: the cloud item, which a folder tells apart by its file name. */
type DrawingOf = Pick<JobRecord, 'projectId' | 'fileFolderId' | 'fileName'>

/**
 * Two jobs read versions of the same drawing: the same item, that is the same file name in the
 * same folder of the same project (a job does not keep its item's id; names are unique in a
 * folder, and a new version keeps its item's name).
 */
export function sameDrawing(a: DrawingOf, b: DrawingOf): boolean {
  return (
    a.projectId === b.projectId && a.fileFolderId === b.fileFolderId && a.fileName === b.fileName
  )
}

/** The sentence above a change bill of two different drawings; undefined for one drawing. */
export function differentDrawings(from: JobRecord, to: JobRecord): string | undefined {
  if (sameDrawing(from, to)) return undefined
  return `These are two different drawings: ${whichTwo(from, to)}.`
}

/** The two drawings by name; by folder too when both have the same name. */
function whichTwo(from: JobRecord, to: JobRecord): string {
  if (from.fileName !== to.fileName) return `${from.fileName} and ${to.fileName}`
  const [a, b] = [from.folder?.name, to.folder?.name]
  if (a && b && a !== b) return `${from.fileName} in ${a} and in ${b}`
  return `${from.fileName} in two ${from.projectId === to.projectId ? 'folders' : 'projects'}`
}
