import { createHash, randomUUID } from 'node:crypto'
import {
  fakeToken,
  folderUrn,
  itemUrn,
  randomSuffix,
  stableSuffix,
  storageUrn,
  uuidFrom,
  versionUrn,
} from './ids.ts'

export interface FakeUser {
  id: string
  name: string
  email: string
  picture: string
}
export interface FakeHub {
  id: string
  name: string
  kind: 'bim360' | 'personal'
}
export interface FakeProject {
  id: string
  hubId: string
  name: string
  rootFolderId: string
}
export interface FakeFolder {
  id: string
  projectId: string
  parentId: string | null
  name: string
  hidden: boolean
  /** What CheckPermission answers for `create`. */
  canCreate: boolean
  createTime: string
}
export interface FakeVersion {
  id: string
  number: number
  name: string
  storageId: string
  createTime: string
  userName: string
}
export interface FakeItem {
  id: string
  projectId: string
  folderId: string
  displayName: string
  hidden: boolean
  versions: FakeVersion[]
  createTime: string
}
export interface FakeObject {
  bucketKey: string
  objectKey: string
  /** Set once the upload completed. */
  bytes?: Uint8Array
}
export interface AccessGrant {
  userId: string
  clientId: string
  scope: string[]
  expiresAt: number
}
export interface RefreshGrant {
  userId: string
  clientId: string
  /** What the user consented to; narrower refreshes keep it. */
  grantedScope: string[]
  used: boolean
  revoked: boolean
}
/** A Data Management webhook (Webhooks API v1), as Autodesk lists it. */
export interface FakeHook {
  hookId: string
  system: 'data'
  event: string
  callbackUrl: string
  scope: { folder: string }
  hookAttribute?: unknown
  /** The user whose three-legged token made it: their secret token signs its deliveries. */
  createdBy: string
  createdDate: string
  status: 'active' | 'inactive'
}
/** One POST of an event to a hook's callback, and what the callback answered. */
export interface FakeDelivery {
  deliveryId: string
  hookId: string
  callbackUrl: string
  /** The raw body, exactly as sent (the signature covers these bytes). */
  body: string
  /** The x-adsk-signature header sent; undefined: none (no secret token set, or a forged one). */
  signature?: string
  /** The callback's HTTP status; undefined until it answered, or when it could not be reached. */
  status?: number
  error?: string
}
export interface CodeGrant {
  userId: string
  clientId: string
  redirectUri: string
  scope: string[]
  codeChallenge?: string
  codeChallengeMethod?: string
  expiresAt: number
  used: boolean
}

/** Everything the fake Autodesk knows; tests read and change it directly. */
export class FakeApsState {
  user: FakeUser = {
    id: 'FAKEUSER0001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    picture: '/fake-profile/ada.png',
  }
  hubs = new Map<string, FakeHub>()
  projects = new Map<string, FakeProject>()
  folders = new Map<string, FakeFolder>()
  items = new Map<string, FakeItem>()
  /** folder id → its child folders and items, in creation order (lists stay fast when big). */
  private children = new Map<string, { folders: FakeFolder[]; items: FakeItem[] }>()
  objects = new Map<string, FakeObject>()
  codes = new Map<string, CodeGrant>()
  accessTokens = new Map<string, AccessGrant>()
  refreshTokens = new Map<string, RefreshGrant>()
  /** uploadKey → object storage id */
  uploads = new Map<string, string>()
  /** signature → storage id (download) or uploadKey (upload) */
  signatures = new Map<string, { target: string; kind: 'download' | 'upload'; expiresAt: number }>()
  hooks = new Map<string, FakeHook>()
  /** user id → the webhook secret token their deliveries are signed with. */
  hookSecrets = new Map<string, string>()
  /** Every webhook delivery, oldest first. */
  deliveries: FakeDelivery[] = []
  accessTokenTtlSec = 3599
  private clock = 0

  /**
   * Timestamps are the time now, as Autodesk's are (a watch compares them with its own clock),
   * moving forward at least a millisecond per created thing, so order is stable.
   */
  tick(): string {
    this.clock = Math.max(this.clock + 1, Date.now())
    return new Date(this.clock).toISOString()
  }

  addHub(name: string, kind: FakeHub['kind'] = 'bim360'): FakeHub {
    const id =
      kind === 'bim360'
        ? `b.${uuidFrom(`hub:${name}`)}`
        : `a.${Buffer.from(`personal:${name}`).toString('base64url')}`
    const hub = { id, name, kind }
    this.hubs.set(id, hub)
    return hub
  }

  addProject(hub: FakeHub, name: string): FakeProject {
    const id =
      hub.kind === 'bim360'
        ? `b.${uuidFrom(`project:${hub.id}:${name}`)}`
        : `a.${Buffer.from(`project:${name}`).toString('base64url')}`
    const rootFolderId = folderUrn(stableSuffix(`root:${id}`))
    const project = { id, hubId: hub.id, name, rootFolderId }
    this.projects.set(id, project)
    this.putFolder({
      id: rootFolderId,
      projectId: id,
      parentId: null,
      name: `${name} root`,
      hidden: false,
      canCreate: false,
      createTime: this.tick(),
    })
    return project
  }

  addFolder(
    parentId: string,
    name: string,
    options: { hidden?: boolean; canCreate?: boolean } = {},
  ): FakeFolder {
    const parent = this.folders.get(parentId)
    if (!parent) throw new Error(`no folder ${parentId}`)
    const id = folderUrn(stableSuffix(`folder:${parentId}:${name}`))
    const folder = {
      id,
      projectId: parent.projectId,
      parentId,
      name,
      hidden: options.hidden ?? false,
      canCreate: options.canCreate ?? true,
      createTime: this.tick(),
    }
    this.putFolder(folder)
    return folder
  }

  private slot(folderId: string) {
    let slot = this.children.get(folderId)
    if (!slot) {
      slot = { folders: [], items: [] }
      this.children.set(folderId, slot)
    }
    return slot
  }

  private putFolder(folder: FakeFolder): void {
    this.folders.set(folder.id, folder)
    if (folder.parentId) this.slot(folder.parentId).folders.push(folder)
  }

  private putItem(item: FakeItem): void {
    this.items.set(item.id, item)
    this.slot(item.folderId).items.push(item)
  }

  /** An item whose versions hold these bytes (one version per entry, oldest first). */
  addItem(
    folderId: string,
    displayName: string,
    versions: Uint8Array[],
    options: { hidden?: boolean } = {},
  ): FakeItem {
    const folder = this.folders.get(folderId)
    if (!folder) throw new Error(`no folder ${folderId}`)
    const suffix = stableSuffix(`item:${folderId}:${displayName}`)
    const item: FakeItem = {
      id: itemUrn(suffix),
      projectId: folder.projectId,
      folderId,
      displayName,
      hidden: options.hidden ?? false,
      versions: [],
      createTime: this.tick(),
    }
    this.putItem(item)
    for (const bytes of versions) this.addVersion(item, this.storeObject(displayName, bytes))
    return item
  }

  /** Many small items at once (big-folder tests): they share one stored object. */
  addManyItems(folderId: string, count: number, prefix = 'file'): void {
    const shared = this.storeObject('shared.dwg', new Uint8Array([1, 2, 3]))
    for (let i = 0; i < count; i++) {
      const name = `${prefix}-${String(i).padStart(5, '0')}.dwg`
      const suffix = stableSuffix(`item:${folderId}:${name}`)
      const item: FakeItem = {
        id: itemUrn(suffix),
        projectId: this.folders.get(folderId)?.projectId ?? '',
        folderId,
        displayName: name,
        hidden: false,
        versions: [],
        createTime: this.tick(),
      }
      this.putItem(item)
      this.addVersion(item, shared)
    }
  }

  storeObject(name: string, bytes?: Uint8Array): string {
    const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')) : ''
    const objectKey = `${randomUUID()}${ext.replace(/[^A-Za-z0-9.]/g, '')}`
    const id = storageUrn(objectKey)
    this.objects.set(id, { bucketKey: id.split(':').pop()?.split('/')[0] ?? '', objectKey, bytes })
    return id
  }

  addVersion(item: FakeItem, storageId: string, name = item.displayName): FakeVersion {
    const number = item.versions.length + 1
    const version = {
      id: versionUrn(item.id.split(':').pop() ?? randomSuffix(), number),
      number,
      name,
      storageId,
      createTime: this.tick(),
      userName: this.user.name,
    }
    item.versions.push(version)
    return version
  }

  project(id: string): FakeProject | undefined {
    return this.projects.get(id)
  }

  childrenOf(folderId: string): { folders: FakeFolder[]; items: FakeItem[] } {
    const slot = this.children.get(folderId)
    return { folders: [...(slot?.folders ?? [])], items: [...(slot?.items ?? [])] }
  }

  findFolder(projectId: string, name: string): FakeFolder | undefined {
    return [...this.folders.values()].find((f) => f.projectId === projectId && f.name === name)
  }

  findItem(folderId: string, displayName: string): FakeItem | undefined {
    return this.children.get(folderId)?.items.find((i) => i.displayName === displayName)
  }

  versionById(id: string): { item: FakeItem; version: FakeVersion } | undefined {
    for (const item of this.items.values()) {
      const version = item.versions.find((v) => v.id === id)
      if (version) return { item, version }
    }
    return undefined
  }

  issueTokens(userId: string, clientId: string, scope: string[], grantedScope: string[]) {
    const accessToken = fakeToken('at')
    const refreshToken = fakeToken('rt')
    this.accessTokens.set(accessToken, {
      userId,
      clientId,
      scope,
      expiresAt: Date.now() + this.accessTokenTtlSec * 1000,
    })
    this.refreshTokens.set(refreshToken, {
      userId,
      clientId,
      grantedScope,
      used: false,
      revoked: false,
    })
    return { accessToken, refreshToken, expiresIn: this.accessTokenTtlSec }
  }

  /** Fault: every access token issued so far stops working (as after its hour). */
  expireAccessTokens(): void {
    for (const grant of this.accessTokens.values()) grant.expiresAt = 0
  }

  /**
   * Fault: every refresh token issued so far (of one user, when given) is revoked (the user
   * removed the app's access).
   */
  revokeRefreshTokens(userId?: string): void {
    for (const grant of this.refreshTokens.values()) {
      if (userId === undefined || grant.userId === userId) grant.revoked = true
    }
  }

  /** The folder and its ancestors, from the folder up to the project's root. */
  folderChain(folderId: string): FakeFolder[] {
    const chain: FakeFolder[] = []
    for (
      let f = this.folders.get(folderId);
      f;
      f = f.parentId ? this.folders.get(f.parentId) : undefined
    ) {
      chain.push(f)
    }
    return chain
  }
}

export function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}
