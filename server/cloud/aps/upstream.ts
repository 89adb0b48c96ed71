import { AppError } from '../../errors.ts'
import type { JsonApiResource } from '../types.ts'
import { badAnswer, rateLimited, upstreamError } from './upstream-errors.ts'

export interface UpstreamOptions {
  /** APS_BASE_URL: every Autodesk address is derived from it. */
  baseUrl: string
  fetch?: typeof globalThis.fetch
  /** Tries of one call while Autodesk answers 429 (default 10). */
  maxTries?: number
  /** Time window for those tries (default 60 s): a wait beyond it gives up at once. */
  retryWindowMs?: number
  /** Time allowed for one Autodesk answer (default 60 s). */
  timeoutMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

export interface SendInit {
  method?: string
  accessToken?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** Signed S3 URLs live on other hosts: no bearer token goes there. */
  external?: boolean
  /** An Autodesk address on another host, known from discovery (userinfo): token allowed. */
  anyOrigin?: boolean
  timeoutMs?: number
}

export interface Upstream {
  readonly baseUrl: string
  url(path: string, query?: Record<string, string | undefined>): string
  /** A 2xx response; anything else is thrown as the app's error. */
  send(url: string, init?: SendInit): Promise<Response>
  json<T>(url: string, init?: SendInit): Promise<T>
  /**
   * Every page of a JSON:API list, following `links.next` (same origin only); each page's
   * `included` resources are added to `included` when it is given.
   */
  allPages(
    url: string,
    accessToken: string,
    included?: JsonApiResource[],
  ): Promise<JsonApiResource[]>
}

export const PAGE_LIMIT = 200
const MAX_PAGES = 10_000

export function createUpstream(options: UpstreamOptions): Upstream {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const origin = new URL(baseUrl).origin
  const doFetch = options.fetch ?? globalThis.fetch
  const maxTries = options.maxTries ?? 10
  const windowMs = options.retryWindowMs ?? 60_000
  const timeoutMs = options.timeoutMs ?? 60_000
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const now = options.now ?? Date.now

  function url(path: string, query?: Record<string, string | undefined>): string {
    const target = new URL(baseUrl + path)
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, value)
    }
    // Spaces as %20 rather than '+' (scope lists): every reader of URLs agrees on that one.
    target.search = target.searchParams.toString().replace(/\+/g, '%20')
    return target.toString()
  }

  async function once(target: string, init: SendInit): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers }
    if (init.accessToken && !init.external) headers.authorization = `Bearer ${init.accessToken}`
    try {
      return await doFetch(target, {
        method: init.method ?? 'GET',
        headers,
        body: init.body as BodyInit | undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(init.timeoutMs ?? timeoutMs),
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') {
        throw new AppError(504, 'Autodesk did not answer in time. Please try again.', {
          cause: error,
        })
      }
      throw new AppError(502, 'Autodesk could not be reached. Please try again later.', {
        cause: error,
      })
    }
  }

  async function send(target: string, init: SendInit = {}): Promise<Response> {
    if (!init.external && !init.anyOrigin && new URL(target).origin !== origin) {
      throw new AppError(502, 'Autodesk pointed BOQ to an address outside Autodesk.')
    }
    const started = now()
    for (let attempt = 1; ; attempt++) {
      const response = await once(target, init)
      if (response.ok) return response
      const text = await response.text().catch(() => '')
      if (response.status !== 429) throw upstreamError(response.status, text)
      const wait = retryAfterMs(response.headers.get('retry-after'), attempt, now())
      if (attempt >= maxTries || now() - started + wait > windowMs) throw rateLimited(wait)
      await sleep(wait)
    }
  }

  async function json<T>(target: string, init?: SendInit): Promise<T> {
    const response = await send(target, init)
    const text = await response.text()
    try {
      return JSON.parse(text) as T
    } catch {
      throw badAnswer('an answer')
    }
  }

  /**
   * Pages are asked for one after another, each from the previous page's `links.next`. The next
   * request leaves as soon as that link is found in the page's text, so the parsing of a big page
   * overlaps Autodesk's time on the next one; the parsed link is then checked against it.
   */
  async function allPages(
    first: string,
    accessToken: string,
    included?: JsonApiResource[],
  ): Promise<JsonApiResource[]> {
    const out: JsonApiResource[] = []
    const seen = new Set<string>()
    const resolve = (href: unknown) => {
      if (typeof href !== 'string' || href === '') return undefined
      if (!URL.canParse(href, `${origin}/`)) throw badAnswer('a list with a broken next link')
      return new URL(href, `${origin}/`).toString()
    }
    const fetchText = (target: string) => {
      if (seen.has(target) || seen.size >= MAX_PAGES)
        throw badAnswer('a list whose pages never end')
      seen.add(target)
      const text = send(target, { accessToken }).then((response) => response.text())
      text.catch(() => {}) // awaited below, or dropped when the early link was wrong
      return { target, text }
    }
    let current: { target: string; text: Promise<string> } | undefined = fetchText(first)
    while (current) {
      const text = await current.text
      let early: string | undefined
      try {
        early = resolve(earlyNextLink(text))
      } catch {
        early = undefined // the parsed page decides below
      }
      const ahead = early && !seen.has(early) ? fetchText(early) : undefined
      let page: {
        data?: unknown
        included?: unknown
        links?: { next?: { href?: unknown } | null }
      }
      try {
        page = JSON.parse(text)
      } catch {
        throw badAnswer('a list')
      }
      if (!Array.isArray(page?.data)) throw badAnswer('a list')
      out.push(...(page.data as JsonApiResource[]))
      if (included && Array.isArray(page.included)) {
        included.push(...(page.included as JsonApiResource[]))
      }
      const next = resolve(page.links?.next?.href)
      if (ahead && ahead.target === next) current = ahead
      else {
        if (ahead) seen.delete(ahead.target)
        current = next ? fetchText(next) : undefined
      }
    }
    return out
  }

  return { baseUrl, url, send, json, allPages }
}

/**
 * The `links.next` href as it stands in a JSON:API page's text, before the page is parsed. Inside
 * JSON strings quotes are escaped, so this pattern can only meet the document's own keys.
 */
export function earlyNextLink(text: string): string | undefined {
  const match = /"next"\s*:\s*\{\s*"href"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)
  if (!match) return undefined
  try {
    return JSON.parse(match[1]) as string
  } catch {
    return undefined
  }
}

/** Retry-After in seconds or as an HTTP date; without one, a short growing pause. */
export function retryAfterMs(header: string | null, attempt: number, nowMs: number): number {
  if (header !== null) {
    const trimmed = header.trim()
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
    const date = Date.parse(trimmed)
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs)
  }
  return Math.min(500 * 2 ** (attempt - 1), 8_000)
}
