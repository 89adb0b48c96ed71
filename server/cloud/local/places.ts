import { access, constants, lstat, readdir, stat } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { AppError } from '../../errors.ts'
import { checkFileName, sameName } from '../names.ts'
import type { UploadRequest } from '../types.ts'
import { decodeStorageId } from './ids.ts'
import { type CloudPaths, isListedName } from './paths.ts'
import type { VersionRecorder } from './version-recorder.ts'
import type { VersionInfo } from './version-store.ts'

/** Where an upload goes: the folder of the project, and the drawing's name there. */
export type UploadTarget = Omit<UploadRequest, 'bytes'>

/** Where the local cloud's answers are on disk: stored versions, folders written to, uploads' items. */
export function cloudPlaces(paths: CloudPaths, recorder: VersionRecorder) {
  /** A stored version from its storage id, inside the given project, and its item's name. */
  async function stored(
    projectId: string,
    storageId: string,
  ): Promise<VersionInfo & { name: string; rel: string }> {
    const notFound = new AppError(404, 'File not found.')
    const parsed = decodeStorageId(storageId)
    if (!parsed) throw notFound
    const proj = await paths.resolve('project', projectId).catch(() => {
      throw new AppError(404, 'Project not found.')
    })
    const item = await paths.resolveRel('item', parsed.itemRel, proj.rel).catch(() => {
      throw notFound
    })
    const version = (await recorder.versions(item.abs)).find((v) => v.number === parsed.version)
    if (!version) throw notFound
    return { ...version, name: posix.basename(item.rel), rel: item.rel }
  }

  /**
   * The entry of the folder that is the item named `name` (checked, composed): that name, else a
   * name that is the same once composed (a file dropped in decomposed, as macOS writes names), so
   * that names that look the same are one item; `name` itself when there is none yet.
   */
  async function nameInFolder(folderAbs: string, name: string): Promise<string> {
    const exists = await lstat(join(folderAbs, name)).then(
      () => true,
      () => false,
    )
    if (exists) return name
    const names = await readdir(folderAbs).catch(() => [] as string[])
    return names.find((other) => isListedName(other) && sameName(other, name)) ?? name
  }

  async function writableFolder(projectId: string, folderId: string) {
    const proj = await paths.resolve('project', projectId)
    const folder = await paths.resolve('folder', folderId, proj.rel)
    try {
      await access(folder.abs, constants.W_OK)
    } catch {
      throw new AppError(403, 'You cannot write to this folder.')
    }
    return { proj, folder }
  }

  /** The item an upload writes: the folder's item of that name (composed), or a new one. */
  async function uploadPlace(target: UploadTarget): Promise<{ itemRel: string; itemAbs: string }> {
    const fileName = checkFileName(target.fileName)
    const { folder } = await writableFolder(target.projectId, target.folderId)
    const name = await nameInFolder(folder.abs, fileName)
    const itemRel = `${folder.rel}/${name}`
    const itemAbs = paths.abs(itemRel)
    const existing = await stat(itemAbs).catch(() => undefined)
    if (existing && !existing.isFile()) {
      throw new AppError(409, `"${name}" is a folder in this folder; choose another name.`)
    }
    return { itemRel, itemAbs }
  }

  return { stored, nameInFolder, writableFolder, uploadPlace }
}
