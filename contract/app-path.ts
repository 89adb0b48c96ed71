import * as v from 'valibot'

/** The longest path a sign-in carries back to. */
export const APP_PATH_MAX_LENGTH = 2000

// Any origin would do: a path that stays on it stays on the app's.
const ORIGIN = 'http://app.invalid'

/** One slash first: `//host` and `/\host` are another site to a browser. */
const ONE_SLASH_FIRST = /^\/(?![/\\])/

/** Backslashes, whitespace and control characters: URL parsers turn or drop them. */
const UNSAFE_CHARACTER = /[\\\s\p{Cc}]/u

/**
 * A page of this app to come back to after signing in (`/jobs/<id>?tab=priced`), as a browser
 * would resolve it; undefined for anything else: another site (`//host`, `https://host`,
 * `/\host`), a path of the API (`/api/…`, which a sign-in never returns to), text too long.
 */
export function appPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > APP_PATH_MAX_LENGTH) return undefined
  if (!ONE_SLASH_FIRST.test(value) || UNSAFE_CHARACTER.test(value)) return undefined
  if (!URL.canParse(value, ORIGIN)) return undefined
  const url = new URL(value, ORIGIN)
  const path = url.pathname + url.search + url.hash
  // Dot segments are resolved first: '/.//host' becomes '//host', '/x/../api/' an API path.
  if (url.origin !== ORIGIN || !ONE_SLASH_FIRST.test(path)) return undefined
  if (isApiPath(url.pathname)) return undefined
  return path
}

/**
 * An API path, also written with escapes (`/%61pi/`), which the server's router decodes; a path
 * that cannot be decoded is taken for one.
 */
function isApiPath(pathname: string): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return true
  }
  return /^\/api(\/|$)/i.test(decoded)
}

/** The page to come back to after signing in (`returnTo`), checked by appPath. */
export const AppPathSchema = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const path = appPath(dataset.value)
    if (path !== undefined) return path
    addIssue({ message: 'Not a page of this app.' })
    return NEVER
  }),
)
