import type { Dirent, Stats } from 'node:fs'
import { access, constants, readdir, readFile, stat } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { AppError } from '../../errors.ts'
import type { CloudBackend, JsonApiResource } from '../types.ts'
import { decodeStorageId, makeId, makeVersionId } from './ids.ts'
import { createKeyedLock } from './keyed-lock.ts'
import { CloudPaths, isVisibleName } from './paths.ts'
import {
  folderResource,
  hubResource,
  itemResource,
  projectResource,
  versionResource,
} from './resources.ts'
import { listVersions, type VersionInfo, writeVersion } from './version-store.ts'

export interface LocalCloudOptions {
  /** The cloud folder: `<root>/<hub>/<project>/<folders…>/<files>`. */
  root: string
  /** Named as the author of files no version record describes (dropped in by hand). */
  localUserName: string
}

interface Entry {
  name: string
  rel: string
  info: Stats
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
const byName = (a: Entry, b: Entry) => collator.compare(a.name, b.name)

/** The local back end: a folder on disk is the cloud (README "The local cloud"). */
export function createLocalCloud(options: LocalCloudOptions): CloudBackend {
  const paths = new CloudPaths(options.root)
  const lock = createKeyedLock()
  const fallbackUser = options.localUserName

  /** Visible files and folders of a folder already resolved inside the cloud: one stat each. */
  async function entries(
    dirAbs: string,
    dirRel: string,
  ): Promise<{ folders: Entry[]; files: Entry[] }> {
    let dirents: Dirent[]
    try {
      dirents = await readdir(dirAbs, { withFileTypes: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folders: [], files: [] }
      throw error
    }
    const folders: Entry[] = []
    const files: Entry[] = []
    await Promise.all(
      dirents.map(async (dirent) => {
        if (!isVisibleName(dirent.name)) return
        if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink()) return
        const abs = join(dirAbs, dirent.name)
        // A symlink is shown only when it points back inside the cloud folder.
        if (dirent.isSymbolicLink() && !(await paths.staysInside(abs))) return
        const info = await stat(abs).catch(() => undefined)
        const entry = {
          name: dirent.name,
          rel: dirRel ? `${dirRel}/${dirent.name}` : dirent.name,
          info,
        }
        if (info?.isDirectory()) folders.push(entry as Entry)
        else if (info?.isFile()) files.push(entry as Entry)
      }),
    )
    return { folders: folders.sort(byName), files: files.sort(byName) }
  }

  async function project(hubId: string, projectId: string) {
    const hub = await paths.resolve('hub', hubId)
    return paths.resolve('project', projectId, hub.rel)
  }

  /** A stored version from its storage id, inside the given project. */
  async function stored(projectId: string, storageId: string): Promise<VersionInfo> {
    const notFound = new AppError(404, 'File not found.')
    const parsed = decodeStorageId(storageId)
    if (!parsed) throw notFound
    const proj = await paths.resolve('project', projectId).catch(() => {
      throw new AppError(404, 'Project not found.')
    })
    const item = await paths.resolveRel('item', parsed.itemRel, proj.rel).catch(() => {
      throw notFound
    })
    const version = (await listVersions(item.abs, fallbackUser)).find(
      (v) => v.number === parsed.version,
    )
    if (!version) throw notFound
    return version
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

  return {
    kind: 'local',

    async hubs() {
      const { folders } = await entries(paths.root, '')
      return folders.map((hub) => hubResource(hub.rel, hub.name))
    },

    async projects(_ctx, hubId) {
      const hub = await paths.resolve('hub', hubId)
      const { folders } = await entries(hub.abs, hub.rel)
      return folders.map((p) => projectResource(hubId, p.rel, p.name))
    },

    async contents(_ctx, hubId, projectId, folderId) {
      const proj = await project(hubId, projectId)
      // Without a folder: the project's top folders (as Autodesk's topFolders; files there are not shown).
      if (folderId === undefined) {
        const { folders } = await entries(proj.abs, proj.rel)
        return folders.map((f) => folderResource({ hubId, projectId }, f.rel, f.name, f.info))
      }
      const folder = await paths.resolve('folder', folderId, proj.rel)
      const { folders, files } = await entries(folder.abs, folder.rel)
      const place = { hubId, projectId, parentFolderId: folderId }
      const data: JsonApiResource[] = folders.map((f) =>
        folderResource(place, f.rel, f.name, f.info),
      )
      for (const file of files) data.push(itemResource(place, file.rel, file.name, file.info))
      return data
    },

    async versions(_ctx, hubId, projectId, itemId) {
      const proj = await project(hubId, projectId)
      const item = await paths.resolve('item', itemId, proj.rel)
      const parentFolderId = makeId('folder', posix.dirname(item.rel))
      const name = posix.basename(item.rel)
      const versions = await listVersions(item.abs, fallbackUser)
      // Newest first, as Autodesk answers.
      return versions
        .reverse()
        .map((v) => versionResource({ hubId, projectId, parentFolderId }, item.rel, name, v))
    },

    async storageSize(_ctx, projectId, storageId) {
      const version = await stored(projectId, storageId)
      return (await stat(version.path)).size
    },

    async checkFolder(_ctx, projectId, folderId) {
      await writableFolder(projectId, folderId)
    },

    async download(_ctx, projectId, storageId) {
      const version = await stored(projectId, storageId)
      return new Uint8Array(await readFile(version.path))
    },

    async upload(ctx, request) {
      if (
        !isVisibleName(request.fileName) ||
        request.fileName === '..' ||
        Buffer.byteLength(request.fileName) > 255
      ) {
        throw new AppError(400, `"${request.fileName}" cannot be used as a file name.`)
      }
      const { folder } = await writableFolder(request.projectId, request.folderId)
      const itemRel = `${folder.rel}/${request.fileName}`
      const itemAbs = paths.abs(itemRel)
      const existing = await stat(itemAbs).catch(() => undefined)
      if (existing && !existing.isFile()) {
        throw new AppError(
          409,
          `"${request.fileName}" is a folder in this folder; choose another name.`,
        )
      }
      const result = await lock(itemAbs, () =>
        writeVersion(itemAbs, request.bytes, ctx.user.name, fallbackUser),
      )
      return {
        itemId: makeId('item', itemRel),
        versionId: makeVersionId(itemRel, result.number),
        versionNumber: result.number,
        createdItem: result.createdItem,
      }
    },
  }
}
