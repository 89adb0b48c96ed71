/**
 * Talks to the server's API the way the app does, without a browser: tests use it to find their
 * way through whatever the seed created, and benches to time answers. Local sign-in only.
 */
import type { CloudList, CloudResource } from '#contract/cloud.ts'
import { signIn } from '../../server/testing/client.ts'

/** A JSON:API resource object as the server lists it. */
export type JsonApiObject = CloudResource

export interface ApiClient {
  /** GET or POST a path of the server (`/api/...`) with the session's cookies and XSRF header. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** GET a list (a bare JSON array of resources); throws with the status and body otherwise. */
  list(path: string): Promise<JsonApiObject[]>
}

/** Signs in through GET login → callback (local mode) with the tests' cookie-keeping client. */
export async function apiSignIn(url: string): Promise<ApiClient> {
  const client = await signIn(url)
  return {
    request: client,
    async list(path) {
      const body: unknown = await client.json(path)
      if (!Array.isArray(body)) throw new Error(`GET ${path}: not a bare array of resources`)
      return body as CloudList
    },
  }
}

/** The title the tree shows for a hub, project, folder or item. */
export function titleOf(object: JsonApiObject): string {
  const { name, displayName } = object.attributes
  return String(object.type === 'items' ? (displayName ?? name) : (name ?? displayName))
}

export interface FoundItem {
  /** Tree titles from the hub down to the item: what `expandPath` opens. */
  titles: string[]
  item: JsonApiObject
  hubId: string
  projectId: string
  /** The folder holding the item. */
  folderId: string
}

/** Every item of the cloud (hubs → projects → top folders → folders, depth first) that `matches`. */
export async function findItems(
  api: ApiClient,
  matches: (item: JsonApiObject) => boolean = () => true,
): Promise<FoundItem[]> {
  const found: FoundItem[] = []
  for (const hub of await api.list('/api/aps/hubs')) {
    const projects = await api.list(`/api/aps/hubs/${encodeURIComponent(hub.id)}/projects`)
    for (const project of projects) {
      const base = `/api/aps/hubs/${encodeURIComponent(hub.id)}/projects/${encodeURIComponent(project.id)}/contents`
      const walk = async (titles: string[], folderId: string | undefined) => {
        const query = folderId === undefined ? '' : `?folder_id=${encodeURIComponent(folderId)}`
        for (const entry of await api.list(base + query)) {
          const path = [...titles, titleOf(entry)]
          if (entry.type === 'folders') await walk(path, entry.id)
          else if (entry.type === 'items' && folderId !== undefined && matches(entry)) {
            found.push({
              titles: path,
              item: entry,
              hubId: hub.id,
              projectId: project.id,
              folderId,
            })
          }
        }
      }
      await walk([titleOf(hub), titleOf(project)], undefined)
    }
  }
  return found
}

/** The one item of the cloud titled `name` (a drawing the seed put there); throws unless exactly one. */
export async function findOne(api: ApiClient, name: string): Promise<FoundItem> {
  const found = await findItems(api, (item) => titleOf(item) === name)
  const [one] = found
  if (found.length !== 1 || !one) {
    throw new Error(
      `Expected one ${name} in the local cloud (the seed puts it there); found ${found.length}`,
    )
  }
  return one
}

/** The one seeded drawing of this name and its newest version's number, through a new sign-in. */
export async function findNewestVersion(
  url: string,
  name: string,
): Promise<{ drawing: FoundItem; versionNumber: number }> {
  const api = await apiSignIn(url)
  const drawing = await findOne(api, name)
  const [version] = await versionsOf(api, drawing)
  const versionNumber = version?.attributes.versionNumber
  if (versionNumber === undefined) throw new Error(`${name} has no numbered version`)
  return { drawing, versionNumber }
}

/** The item's versions, newest first, as the server lists them. */
export function versionsOf(api: ApiClient, found: FoundItem): Promise<JsonApiObject[]> {
  const project = `/api/aps/hubs/${encodeURIComponent(found.hubId)}/projects/${encodeURIComponent(found.projectId)}`
  return api.list(`${project}/contents/${encodeURIComponent(found.item.id)}/versions`)
}
