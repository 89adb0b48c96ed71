/**
 * Talks to the server's API the way the app does, without a browser: tests use it to find their
 * way through whatever the seed created, and benches to time answers. Local sign-in only.
 */
import type { CloudList, CloudResource } from '../../contract/cloud.ts'

/** A JSON:API resource object as the server lists it. */
export type JsonApiObject = CloudResource

export interface ApiClient {
  /** GET or POST a path of the server (`/api/...`) with the session's cookies and XSRF header. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** GET a list (a bare JSON array of resources); throws with the status and body otherwise. */
  list(path: string): Promise<JsonApiObject[]>
}

/** Signs in through GET login → callback (local mode), keeping the cookies it sets. */
export async function apiSignIn(url: string): Promise<ApiClient> {
  const cookies = new Map<string, string>()
  const send = async (target: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (cookies.size > 0) {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    }
    const xsrf = cookies.get('XSRF-TOKEN')
    if (xsrf && init.method && init.method !== 'GET')
      headers.set('x-xsrf-token', decodeURIComponent(xsrf))
    const response = await fetch(new URL(target, url), { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair.indexOf('=')
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
    }
    return response
  }

  const login = await send('/api/aps/auth/login')
  const body = (await login.text()).trim()
  const callback = body.startsWith('"') ? (JSON.parse(body) as string) : body
  const landed = await send(callback)
  if (landed.status >= 400)
    throw new Error(`Sign-in failed: ${landed.status} ${await landed.text()}`)
  await landed.body?.cancel()

  return {
    request: send,
    async list(path) {
      const response = await send(path)
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
      const body: unknown = await response.json()
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
