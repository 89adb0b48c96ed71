import type { CloudResource } from '#contract/cloud.ts'
import type { CloudContext } from '../auth/types.ts'

/** Whose cloud is being read (the sign-in's, which hands it out). */
export type { CloudContext }

/**
 * A JSON:API resource object as Autodesk's Data Management API answers it: the shape written once
 * for the server and the app, in contract/cloud.ts.
 */
export type JsonApiResource = CloudResource

export interface UploadRequest {
  projectId: string
  folderId: string
  fileName: string
  bytes: Uint8Array
}

export interface UploadResult {
  itemId: string
  versionId: string
  versionNumber: number
  /** True when a new item was created, false when a version was added to an existing item. */
  createdItem: boolean
}

/** A stored version as the cloud names it. */
export interface StoredVersion {
  /** The version's own file name, as the tree shows it (Autodesk's `displayName`, else `name`). */
  name: string
  versionNumber: number
  /** A file dropped into the local cloud by hand that is still being copied in: not billed yet. */
  stillArriving?: boolean
}

/** Where the caller says a version is: its item's folder and name. */
export interface VersionPlace {
  folderId: string
  fileName: string
}

/**
 * Where a folder sits, as far as the cloud can tell cheaply: what the app needs to name the
 * folder and to open it in its tree.
 */
export interface FolderPlace {
  /** The folder's name, as the tree shows it. */
  name?: string
  /** The hub of the folder's project. */
  hubId?: string
  /** Folder ids from the project's top folder down to this folder (which is last). */
  path?: string[]
}

/** Where a drawing version sits: its number when the ids tell it, and its folder. */
export interface SourcePlace {
  fileVersionNumber?: number
  folder: FolderPlace
}

/** A version as an extraction names it: its project, its folder and its storage id. */
export interface SourceRequest {
  projectId: string
  fileFolderId: string
  fileStorageId: string
}

/**
 * One cloud of drawings (the local folder, or Autodesk Platform Services). Lists are always whole.
 * Failures throw AppError with the status and a plain-text reason for the person using the app
 * (404 for an id that does not resolve, 403 when not allowed, 429/502 for upstream trouble).
 */
export interface CloudBackend {
  readonly kind: 'local' | 'aps'
  hubs(ctx: CloudContext): Promise<JsonApiResource[]>
  projects(ctx: CloudContext, hubId: string): Promise<JsonApiResource[]>
  /** Without folderId: the project's top folders. */
  contents(
    ctx: CloudContext,
    hubId: string,
    projectId: string,
    folderId?: string,
  ): Promise<JsonApiResource[]>
  versions(
    ctx: CloudContext,
    hubId: string,
    projectId: string,
    itemId: string,
  ): Promise<JsonApiResource[]>
  /** Size in bytes of a stored version, or 404 when the user cannot reach it. */
  storageSize(ctx: CloudContext, projectId: string, storageId: string): Promise<number>
  /**
   * The version a storage id names: its own name and its number. Autodesk has no lookup by storage
   * id, so it is looked for where `near` says it is (the folder's item of that name, its tip first,
   * then its other versions); undefined when it is not there. The local cloud reads it from the id
   * (404 when the id does not resolve).
   */
  storedVersion(
    ctx: CloudContext,
    projectId: string,
    storageId: string,
    near: VersionPlace,
  ): Promise<StoredVersion | undefined>
  /**
   * What the cloud tells cheaply about where a version is (after its folder and storage id were
   * checked). Never fails: what cannot be learnt is left out.
   */
  locate(ctx: CloudContext, request: SourceRequest): Promise<SourcePlace>
  /** Resolves when the folder exists inside the project and the user can write to it. */
  checkFolder(ctx: CloudContext, projectId: string, folderId: string): Promise<void>
  download(ctx: CloudContext, projectId: string, storageId: string): Promise<Uint8Array>
  /**
   * The item named `fileName` directly in the folder and its newest version number, or undefined
   * when there is none (what a job checks before writing its result again).
   */
  latestVersion(
    ctx: CloudContext,
    projectId: string,
    folderId: string,
    fileName: string,
  ): Promise<{ itemId: string; versionNumber: number } | undefined>
  /** Writes a file into a folder: a new item, or a new version when the name exists there. */
  upload(ctx: CloudContext, request: UploadRequest): Promise<UploadResult>
}
