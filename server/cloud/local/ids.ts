/**
 * Opaque ids of the local cloud: the base64url of the path relative to the cloud folder, inside the
 * id forms Autodesk uses, so they are stable across restarts and look like the real thing.
 * Decoding only yields a candidate path; paths.ts checks it against the disk.
 */

export type Kind = 'hub' | 'project' | 'folder' | 'item'

const PREFIX: Record<Kind, string> = {
  hub: 'b.',
  project: 'b.',
  folder: 'urn:adsk.wipprod:fs.folder:co.',
  item: 'urn:adsk.wipprod:dm.lineage:',
}
const VERSION_PREFIX = 'urn:adsk.wipprod:fs.file:vf.'
const STORAGE_PREFIX = 'urn:adsk.objects:os.object:'
/** The local cloud's one storage bucket (storage ids are parsed, never assumed to use it). */
export const LOCAL_BUCKET = 'wip.dm.local'

export function encodePath(rel: string): string {
  return Buffer.from(rel, 'utf8').toString('base64url')
}

export function makeId(kind: Kind, rel: string): string {
  return PREFIX[kind] + encodePath(rel)
}

export function makeVersionId(itemRel: string, version: number): string {
  return `${VERSION_PREFIX}${encodePath(itemRel)}?version=${version}`
}

export function makeStorageId(itemRel: string, version: number): string {
  return `${STORAGE_PREFIX}${LOCAL_BUCKET}/${encodePath(itemRel)}.v${version}`
}

/** The relative path inside an id of this kind, or undefined when the id is not one of ours. */
export function decodeId(kind: Kind, id: string): string | undefined {
  const prefix = PREFIX[kind]
  if (typeof id !== 'string' || !id.startsWith(prefix)) return undefined
  return decodePath(id.slice(prefix.length))
}

/** Parses `urn:adsk.objects:os.object:<bucket>/<object>` into the item's path and version number. */
export function decodeStorageId(id: string): { itemRel: string; version: number } | undefined {
  if (typeof id !== 'string' || !id.startsWith(STORAGE_PREFIX)) return undefined
  const rest = id.slice(STORAGE_PREFIX.length)
  const slash = rest.indexOf('/')
  if (slash < 0 || rest.slice(0, slash) !== LOCAL_BUCKET) return undefined
  const match = /^([A-Za-z0-9_-]+)\.v([1-9]\d{0,8})$/.exec(rest.slice(slash + 1))
  if (!match) return undefined
  const itemRel = decodePath(match[1] ?? '')
  return itemRel === undefined ? undefined : { itemRel, version: Number(match[2]) }
}

/** Strict base64url: only the canonical encoding of a valid UTF-8 path is accepted. */
function decodePath(encoded: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined
  const rel = Buffer.from(encoded, 'base64url').toString('utf8')
  return encodePath(rel) === encoded ? rel : undefined
}
