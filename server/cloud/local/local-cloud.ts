import { readFile, stat } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { AppError } from '../../errors.ts'
import { checkFileName } from '../names.ts'
import type { CloudBackend, CloudContext, JsonApiResource, UploadResult } from '../types.ts'
import { entries } from './folder-entries.ts'
import { makeId, makeVersionId } from './ids.ts'
import { createItemLock } from './item-lock.ts'
import { locateByIds } from './locate.ts'
import { CloudPaths } from './paths.ts'
import { cloudPlaces, type UploadTarget } from './places.ts'
import {
  folderResource,
  hubResource,
  itemResource,
  projectResource,
  versionResource,
} from './resources.ts'
import type { SettleOptions } from './settling.ts'
import { createVersionRecorder } from './version-recorder.ts'
import { openIncoming, writeVersion } from './version-store.ts'

export interface LocalCloudOptions {
  /** The cloud folder: `<root>/<hub>/<project>/<folders…>/<files>`. */
  root: string
  /** Named as the author of files no version record describes (dropped in by hand). */
  localUserName: string
  /** When a file dropped by hand has stopped changing (settling.ts); the defaults, or a test's. */
  settle?: SettleOptions
}

/** The local back end, with what only a folder on disk can answer. */
export interface LocalCloud extends CloudBackend {
  readonly kind: 'local'
  /** The name of an item that sits directly in the folder of the project; 404 otherwise. */
  itemName(projectId: string, folderId: string, itemId: string): Promise<string>
  /**
   * `upload` of bytes that `fill` writes to the file at `path` as they arrive (an upload streamed
   * to disk), before the item's lock is taken: other writes and listings of the item never wait
   * for the sender. The target is checked first (404, 403, 400, 409 as `upload`); what `fill`
   * throws is thrown, and nothing of it is left. The bytes become the version once `fill` has
   * resolved, under the item's lock.
   */
  uploadFrom(
    ctx: CloudContext,
    target: UploadTarget,
    fill: (path: string) => Promise<void>,
  ): Promise<UploadResult>
}

/** The folder that is the cloud in local mode, in the data folder (BOQ_DATA_DIR). */
export function localCloudRoot(dataDir: string): string {
  return join(dataDir, 'cloud')
}

/** The local back end: a folder on disk is the cloud (README "The local cloud"). */
export function createLocalCloud(options: LocalCloudOptions): LocalCloud {
  const paths = new CloudPaths(options.root)
  // Writes to an item, one at a time across every process that shares the folder.
  const lock = createItemLock()
  const fallbackUser = options.localUserName
  // Listing a folder or an item's versions, or reading a version, records what it meets.
  const recorder = createVersionRecorder({ lock, fallbackUser, settle: options.settle })

  async function project(hubId: string, projectId: string) {
    const hub = await paths.resolve('hub', hubId)
    return paths.resolve('project', projectId, hub.rel)
  }

  const { stored, nameInFolder, writableFolder, uploadPlace } = cloudPlaces(paths, recorder)

  return {
    kind: 'local',

    async hubs() {
      const { folders } = await entries(paths, paths.root, '')
      return folders.map((hub) => hubResource(hub.rel, hub.name))
    },

    async projects(_ctx, hubId) {
      const hub = await paths.resolve('hub', hubId)
      const { folders } = await entries(paths, hub.abs, hub.rel)
      return folders.map((p) => projectResource(hubId, p.rel, p.name))
    },

    async contents(_ctx, hubId, projectId, folderId) {
      const proj = await project(hubId, projectId)
      // Without a folder: the project's top folders (as Autodesk's topFolders; files there are not shown).
      if (folderId === undefined) {
        const { folders } = await entries(paths, proj.abs, proj.rel)
        return folders.map((f) => folderResource({ hubId, projectId }, f.rel, f.name, f.info))
      }
      const folder = await paths.resolve('folder', folderId, proj.rel)
      const { folders, files } = await entries(paths, folder.abs, folder.rel)
      await recorder.recordAll(folder.abs, files)
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
      const versions = await recorder.versions(item.abs)
      // Newest first, as Autodesk answers.
      return versions
        .reverse()
        .map((v) => versionResource({ hubId, projectId, parentFolderId }, item.rel, name, v))
    },

    async storageSize(_ctx, projectId, storageId) {
      const version = await stored(projectId, storageId)
      return (await stat(version.path)).size
    },

    async storedVersion(_ctx, projectId, storageId, near) {
      // The id is the item's path and the version's number: nothing to look for. As in Autodesk,
      // a version is only found in its own folder: the BOQ is written beside the drawing.
      const { name, number, rel, settling } = await stored(projectId, storageId)
      const proj = await paths.resolve('project', projectId)
      const folder = await paths.resolve('folder', near.folderId, proj.rel).catch(() => undefined)
      if (posix.dirname(rel) !== folder?.rel) return undefined
      return { name, versionNumber: number, ...(settling ? { stillArriving: true } : {}) }
    },

    async itemName(projectId, folderId, itemId) {
      const proj = await paths.resolve('project', projectId)
      const folder = await paths.resolve('folder', folderId, proj.rel)
      const item = await paths.resolve('item', itemId, folder.rel)
      // Directly in the folder: an item of a subfolder is another folder's item.
      if (posix.dirname(item.rel) !== folder.rel) throw new AppError(404, 'Item not found.')
      return posix.basename(item.rel)
    },

    async locate(_ctx, request) {
      return locateByIds(request)
    },

    async checkFolder(_ctx, projectId, folderId) {
      await writableFolder(projectId, folderId)
    },

    async download(_ctx, projectId, storageId) {
      const version = await stored(projectId, storageId)
      return new Uint8Array(await readFile(version.path))
    },

    async latestVersion(_ctx, projectId, folderId, fileName) {
      const name = checkFileName(fileName)
      const { folder } = await writableFolder(projectId, folderId)
      const itemRel = `${folder.rel}/${await nameInFolder(folder.abs, name)}`
      const itemAbs = paths.abs(itemRel)
      const info = await stat(itemAbs).catch(() => undefined)
      if (!info?.isFile()) return undefined
      const newest = (await recorder.versions(itemAbs)).at(-1)
      return newest && { itemId: makeId('item', itemRel), versionNumber: newest.number }
    },

    async upload(ctx, request) {
      const place = await uploadPlace(request)
      const result = await lock(place.itemAbs, () =>
        writeVersion(place.itemAbs, request.bytes, ctx.user.name, fallbackUser),
      )
      return uploaded(place.itemRel, result)
    },

    async uploadFrom(ctx, target, fill) {
      const place = await uploadPlace(target)
      const incoming = await openIncoming(place.itemAbs)
      try {
        await fill(incoming.path)
        const result = await lock(place.itemAbs, () =>
          writeVersion(place.itemAbs, incoming, ctx.user.name, fallbackUser),
        )
        return uploaded(place.itemRel, result)
      } finally {
        await incoming.close()
      }
    },
  }
}

function uploaded(itemRel: string, result: { number: number; createdItem: boolean }): UploadResult {
  return {
    itemId: makeId('item', itemRel),
    versionId: makeVersionId(itemRel, result.number),
    versionNumber: result.number,
    createdItem: result.createdItem,
  }
}
