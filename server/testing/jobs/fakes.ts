import { gzipSync } from 'node:zlib'
import { encodeGeometry } from '#contract/drawing-geometry.ts'
import { geometryOf } from '#contract/testing/drawing-geometry.ts'
import type { BoqInput } from '../../boq/run/input.ts'
import { locateByListings } from '../../cloud/aps/locate.ts'
import { locateByIds } from '../../cloud/local/locate.ts'
import type {
  CloudBackend,
  CloudContext,
  JsonApiResource,
  StoredVersion,
  UploadRequest,
  UploadResult,
} from '../../cloud/types.ts'
import { AppError, TokenRejectedError } from '../../errors.ts'
import type { Extractor } from '../../jobs/extractor.ts'
import type { NewJob } from '../../jobs/types.ts'

/** A job for a store to take: a user's `plan.dwg` of storage id `storageId`, in p1/f1. */
export function newJobFor(userId: string, storageId: string, more: Partial<NewJob> = {}): NewJob {
  return {
    fileName: 'plan.dwg',
    projectId: 'p1',
    fileFolderId: 'f1',
    fileStorageId: storageId,
    context: contextFor(userId),
    ...more,
  }
}

/** A user's context for unit tests. */
export function contextFor(userId: string, accessToken = `token-${userId}`): CloudContext {
  return { user: { userId, name: `User ${userId}`, picture: '' }, accessToken }
}

/**
 * A tiny in-memory cloud: storage ids → bytes (and the version's own name and number), folders,
 * and uploads that become items then versions. The lists (hubs, projects, contents, versions) are
 * empty unless a test fills them; a version not in `stored` is looked for in them, as Autodesk's is.
 */
export function createFakeCloud() {
  const files = new Map<string, Uint8Array>()
  const stored = new Map<string, StoredVersion>()
  const folders = new Set<string>()
  const lists = {
    hubs: [] as JsonApiResource[],
    /** hubId → projects */
    projects: new Map<string, JsonApiResource[]>(),
    /** projectId → top folders; folderId → contents */
    contents: new Map<string, JsonApiResource[]>(),
    /** itemId → versions */
    versions: new Map<string, JsonApiResource[]>(),
  }
  /**
   * Every lookup, in order (`hubs`, `projects <hub>`, `contents <folder>`, `versions <item>`,
   * `version <storage id>`).
   */
  const listCalls: string[] = []
  const items = new Map<string, { itemId: string; versions: Uint8Array[] }>()
  const revoked = new Set<string>()
  let downloadGate: Promise<void> | undefined

  function checkToken(ctx: CloudContext): void {
    if (revoked.has(ctx.accessToken)) throw new TokenRejectedError()
  }

  const cloud: CloudBackend = {
    kind: 'local',
    async hubs(ctx) {
      checkToken(ctx)
      listCalls.push('hubs')
      return lists.hubs
    },
    async projects(ctx, hubId) {
      checkToken(ctx)
      listCalls.push(`projects ${hubId}`)
      return lists.projects.get(hubId) ?? []
    },
    async contents(ctx, _hubId, projectId, folderId) {
      checkToken(ctx)
      listCalls.push(`contents ${folderId ?? projectId}`)
      return lists.contents.get(folderId ?? projectId) ?? []
    },
    async versions(ctx, _hubId, _projectId, itemId) {
      checkToken(ctx)
      listCalls.push(`versions ${itemId}`)
      return lists.versions.get(itemId) ?? []
    },
    async storageSize(ctx, _projectId, storageId) {
      checkToken(ctx)
      const bytes = files.get(storageId)
      if (!bytes) throw new AppError(404, 'No such file version.')
      return bytes.byteLength
    },
    async storedVersion(ctx, _projectId, storageId, near) {
      checkToken(ctx)
      listCalls.push(`version ${storageId}`)
      const known = stored.get(storageId)
      if (known) return { ...known }
      const items = (lists.contents.get(near.folderId) ?? []).filter(
        (r) => r.type === 'items' && r.attributes.displayName === near.fileName,
      )
      for (const item of items) {
        const versions = lists.versions.get(item.id) ?? []
        const version = versions.find((v) => v.relationships?.storage?.data?.id === storageId)
        const versionNumber = version?.attributes.versionNumber
        if (typeof versionNumber !== 'number') continue
        const name = version?.attributes.displayName ?? version?.attributes.name ?? near.fileName
        return { name: String(name), versionNumber }
      }
      return undefined
    },
    // Local ids tell where a version is; other ids are looked for in the lists, as Autodesk's are.
    async locate(ctx, request) {
      const place = locateByIds(request)
      return place.folder.path ? place : locateByListings(cloud, ctx, request)
    },

    async checkFolder(ctx, projectId, folderId) {
      checkToken(ctx)
      if (!folders.has(`${projectId}/${folderId}`))
        throw new AppError(404, 'No such folder in this project.')
    },
    async download(ctx, _projectId, storageId) {
      checkToken(ctx)
      await downloadGate
      const bytes = files.get(storageId)
      if (!bytes) throw new AppError(404, 'No such file version.')
      return bytes
    },
    async latestVersion(ctx, projectId, folderId, fileName) {
      checkToken(ctx)
      const item = items.get(`${projectId}/${folderId}/${fileName}`)
      return item ? { itemId: item.itemId, versionNumber: item.versions.length } : undefined
    },
    async upload(ctx, request: UploadRequest): Promise<UploadResult> {
      checkToken(ctx)
      const key = `${request.projectId}/${request.folderId}/${request.fileName}`
      let item = items.get(key)
      const createdItem = !item
      if (!item) {
        item = { itemId: `item-${items.size + 1}`, versions: [] }
        items.set(key, item)
      }
      item.versions.push(request.bytes)
      return {
        itemId: item.itemId,
        versionId: `${item.itemId}?version=${item.versions.length}`,
        versionNumber: item.versions.length,
        createdItem,
      }
    },
  }
  return {
    cloud,
    files,
    stored,
    /** A drawing version: its bytes under its storage id, with its own name and number. */
    addDrawing(storageId: string, bytes: Uint8Array, name = 'plan.dwg', versionNumber = 1) {
      files.set(storageId, bytes)
      stored.set(storageId, { name, versionNumber })
    },
    folders,
    items,
    lists,
    listCalls,
    revoke: (token: string) => revoked.add(token),
    /** Holds every download until the returned function is called. */
    holdDownloads(): () => void {
      let release = () => {}
      downloadGate = new Promise((resolve) => {
        release = () => {
          downloadGate = undefined
          resolve()
        }
      })
      return release
    },
  }
}

/** An error shaped like the engine's BoqError (name, kind, one readable sentence). */
export function boqError(kind: string, message: string): Error {
  const error = new Error(message) as Error & { kind: string }
  error.name = 'BoqError'
  error.kind = kind
  return error
}

/** A JSON:API resource as the cloud lists it (only what the jobs read). */
export function resource(
  type: 'hubs' | 'projects' | 'folders' | 'items' | 'versions',
  id: string,
  attributes: Record<string, unknown>,
  storageId?: string,
): JsonApiResource {
  return {
    type,
    id,
    attributes,
    ...(storageId
      ? { relationships: { storage: { data: { type: 'objects', id: storageId } } } }
      : {}),
  }
}

/**
 * A fake engine: `CORRUPT…` bytes fail as corrupt, `CRASH…` as a crashed worker, `THROW…` with an
 * unexpected error; anything else gives outputs naming the file, and `WARN|a|b…` bytes the
 * warnings a, b…; the outputs are priced when tables were given. Geometry alone: one line
 * owned by handle `A1`, none for `NOGEOMETRY…` bytes (read, not drawn); `geometries` counts the
 * builds. `hold()` parks extractions.
 */
export function createFakeExtractor() {
  let gate: Promise<void> | undefined
  let open = () => {}
  let closed = false
  const seen: string[] = []
  /** Every input as given (without the bytes): what reached the engine, options included. */
  const inputs: Omit<BoqInput, 'bytes'>[] = []
  let geometries = 0
  const extractor: Extractor = {
    async extract(input, onProgress) {
      seen.push(input.fileName)
      const { bytes: _bytes, ...given } = input
      inputs.push(given)
      onProgress?.(0.5)
      await gate
      if (closed) throw boqError('crashed', 'The engine was closed.')
      const text = new TextDecoder().decode(input.bytes)
      if (text.startsWith('CORRUPT'))
        throw boqError('corrupt', 'The drawing is damaged and cannot be read.')
      if (text.startsWith('CRASH'))
        throw boqError('crashed', 'The reader crashed while reading this drawing.')
      if (text.startsWith('THROW')) throw new Error('secret internal detail')
      onProgress?.(1)
      return {
        files: {
          xlsx: new TextEncoder().encode(`XLSX of ${input.fileName}`),
          csv: new TextEncoder().encode(`name,count\n${input.fileName},1\n`),
          json: new TextEncoder().encode(`${JSON.stringify({ fake: input.fileName })}\n`),
        },
        comparedWith: input.changesFrom?.from ?? null,
        // Every comparison finds one line changed (what the jobs list tells).
        changedLines: input.changesFrom ? 1 : null,
        warnings: text.startsWith('WARN|') ? text.split('|').slice(1) : [],
        priced: input.pricing !== undefined,
      }
    },
    async geometry(input) {
      geometries++
      await gate
      if (closed) throw boqError('crashed', 'The engine was closed.')
      const text = new TextDecoder().decode(input.bytes)
      if (text.startsWith('CORRUPT'))
        throw boqError('corrupt', 'The drawing is damaged and cannot be read.')
      if (text.startsWith('NOGEOMETRY')) return undefined
      return gzipSync(encodeGeometry(geometryOf({ handles: ['A1'], points: [0, 0, 1, 1] })))
    },
    async zones(input) {
      const text = new TextDecoder().decode(input.bytes)
      if (text.startsWith('CORRUPT'))
        throw boqError('corrupt', 'The drawing is damaged and cannot be read.')
      // One zone per row, on the row's layer as written.
      const zones = (input.locations ?? []).map((row, i) => ({
        id: `Z${i + 1}`,
        name: row.layer,
        path: row.layer,
        parent: null,
        layer: row.layer,
        handle: `${i + 1}`,
        area: 1,
        perimeter: 4,
        label: { source: 'layer' },
      }))
      const answer = { units: { length: 'm', area: 'm²' }, zones, warnings: [] }
      return new TextEncoder().encode(JSON.stringify(answer))
    },
    async close() {
      // As the real engine does: what is running ends (with an error) when it is closed.
      closed = true
      open()
    },
  }
  return {
    extractor,
    seen,
    inputs,
    /** Whether the extractor was closed (by the runner's close). */
    get closed() {
      return closed
    },
    /** How many times a drawing's geometry alone was asked for. */
    get geometries() {
      return geometries
    },
    hold(): () => void {
      gate = new Promise((resolve) => {
        open = () => {
          gate = undefined
          resolve()
        }
      })
      return open
    },
  }
}

/** A fixed key for sealing the tokens of jobs a test's store keeps. */
export const TEST_TOKEN_KEY = new Uint8Array(32).fill(7)
