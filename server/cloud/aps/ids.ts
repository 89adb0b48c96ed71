import { AppError } from '../../errors.ts'

/**
 * Strict shapes of the ids the app passes through to Autodesk. Anything else (path traversal,
 * query or header injection, other hosts) is refused with 400 before any upstream call.
 */
const HUB_OR_PROJECT = /^[ab]\.[A-Za-z0-9_+=-]{1,200}$/
const FOLDER = /^urn:adsk\.[A-Za-z0-9]{1,40}:(?:fs|dm)\.folder:[A-Za-z0-9_.-]{1,200}$/
const ITEM = /^urn:adsk\.[A-Za-z0-9]{1,40}:(?:dm\.lineage|fs\.file):[A-Za-z0-9_.-]{1,200}$/
const VERSION =
  /^urn:adsk\.[A-Za-z0-9]{1,40}:fs\.file:[A-Za-z0-9_.-]{1,200}\?version=[1-9][0-9]{0,8}$/
const STORAGE =
  /^urn:adsk\.objects:os\.object:([a-z0-9_.-]{3,128})\/([A-Za-z0-9_-][A-Za-z0-9_.~-]{0,250})$/
/** Characters Autodesk reserves in file names (Data Management API, POST items). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const RESERVED_NAME_CHARS = /[<>:"/\\|?*'\u0000-\u001f\u007f¢™$®]/

function check(pattern: RegExp, value: unknown, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value) || value.includes('..')) {
    throw new AppError(400, `Invalid ${what}.`)
  }
  return value
}

export const checkHubId = (id: unknown): string => check(HUB_OR_PROJECT, id, 'hub id')
export const checkProjectId = (id: unknown): string => check(HUB_OR_PROJECT, id, 'project id')
export const checkFolderId = (id: unknown): string => check(FOLDER, id, 'folder id')
export const checkItemId = (id: unknown): string => check(ITEM, id, 'item id')
export const checkVersionId = (id: unknown): string => check(VERSION, id, 'version id')

/** `urn:adsk.objects:os.object:<bucket>/<object>`: both parts parsed, the bucket never assumed. */
export function parseStorageId(id: unknown): { bucketKey: string; objectKey: string } {
  const match = typeof id === 'string' && !id.includes('..') ? STORAGE.exec(id) : null
  if (!match) throw new AppError(400, 'Invalid storage id.')
  return { bucketKey: match[1], objectKey: match[2] }
}

/** A file name Autodesk accepts (1–255 characters, none of the reserved ones). */
export function checkFileName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name.length < 1 ||
    name.length > 255 ||
    name.trim() !== name ||
    name === '.' ||
    name === '..' ||
    RESERVED_NAME_CHARS.test(name)
  ) {
    throw new AppError(400, 'Invalid file name.')
  }
  return name
}

/** BIM 360 / ACC projects (`b.`) take bim360 item and version types; others (`a.`) core ones. */
export function isBim360Project(projectId: string): boolean {
  return projectId.startsWith('b.')
}
