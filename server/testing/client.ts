/**
 * A fetch-like HTTP client that keeps cookies (like a browser for one origin) and echoes the
 * XSRF-TOKEN cookie as X-XSRF-TOKEN on mutating calls, as the app does.
 */
export interface TestClient {
  (path: string, init?: RequestInit): Promise<Response>
  /** The cookie jar: name → value. */
  cookies: Map<string, string>
  /** Set-Cookie lines of the last response, as sent. */
  lastSetCookie: string[]
  /** GET and parse JSON; throws with status and body when the answer is not 2xx. */
  json<T = unknown>(path: string): Promise<T>
  /** Signs out as the app does: GET logout with the X-XSRF-TOKEN header. */
  logout(): Promise<Response>
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export function createClient(baseUrl: string, options: { xsrf?: boolean } = {}): TestClient {
  const cookies = new Map<string, string>()
  const client = (async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (cookies.size > 0 && !headers.has('cookie')) {
      headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    }
    const method = (init.method ?? 'GET').toUpperCase()
    const xsrf = cookies.get('XSRF-TOKEN')
    if (options.xsrf !== false && MUTATING.has(method) && xsrf && !headers.has('x-xsrf-token')) {
      headers.set('x-xsrf-token', decodeURIComponent(xsrf))
    }
    const response = await fetch(new URL(path, baseUrl), { redirect: 'manual', ...init, headers })
    client.lastSetCookie = response.headers.getSetCookie()
    for (const line of client.lastSetCookie) storeCookie(cookies, line)
    return response
  }) as TestClient
  client.cookies = cookies
  client.lastSetCookie = []
  client.logout = () =>
    client('/api/aps/auth/logout', {
      headers: { 'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? '') },
    })
  client.json = async <T>(path: string) => {
    const response = await client(path)
    const text = await response.text()
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text}`)
    return JSON.parse(text) as T
  }
  return client
}

function storeCookie(jar: Map<string, string>, line: string): void {
  const [pair = '', ...attributes] = line.split(';')
  const eq = pair.indexOf('=')
  if (eq < 0) return
  const name = pair.slice(0, eq).trim()
  const value = pair.slice(eq + 1).trim()
  const expired = attributes.some((a) => {
    const [k = '', v = ''] = a.split('=').map((s) => s.trim())
    if (k.toLowerCase() === 'max-age') return Number(v) <= 0
    if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now()
    return false
  })
  if (expired || value === '') jar.delete(name)
  else jar.set(name, value)
}

/** Signs in the way a browser does: login → follow the URL to the callback → session cookie. */
export async function signIn(baseUrl: string): Promise<TestClient> {
  const client = createClient(baseUrl)
  const login = await client('/api/aps/auth/login')
  const text = await login.text()
  if (!login.ok) throw new Error(`login answered ${login.status}: ${text}`)
  const url = text.startsWith('"') ? (JSON.parse(text) as string) : text
  const callback = await client(url)
  if (callback.status !== 302)
    throw new Error(`callback answered ${callback.status}: ${await callback.text()}`)
  await callback.body?.cancel()
  if (!client.cookies.has('XSRF-TOKEN'))
    await (await client('/api/aps/auth/profile')).body?.cancel()
  return client
}
