import { AppError } from '../../errors.ts'
import type { JsonApiResource } from '../types.ts'
import { readAllPages } from './list-pages.ts'
import { createRateLimitPause, type RateLimitPause } from './rate-limit-pause.ts'
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
  /** Shared by the requests of one listing: a 429 to one holds back the others too. */
  pause?: RateLimitPause
  /** Cancels the request (and its retries) once its answer is no longer needed. */
  signal?: AbortSignal
}

export interface Upstream {
  readonly baseUrl: string
  url(path: string, query?: Record<string, string | undefined>): string
  /** A 2xx response; anything else is thrown as the app's error. */
  send(url: string, init?: SendInit): Promise<Response>
  json<T>(url: string, init?: SendInit): Promise<T>
  /**
   * Every page of a JSON:API list, in page order (numbered pages several at a time, see
   * list-pages.ts; `links.next` followed on the same origin only); each page's `included`
   * resources are added to `included` when it is given. Any page failing fails the list.
   */
  allPages(
    url: string,
    accessToken: string,
    included?: JsonApiResource[],
  ): Promise<JsonApiResource[]>
}

export const PAGE_LIMIT = 200

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
    const timeout = AbortSignal.timeout(init.timeoutMs ?? timeoutMs)
    try {
      return await doFetch(target, {
        method: init.method ?? 'GET',
        headers,
        body: init.body as BodyInit | undefined,
        redirect: 'manual',
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
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
      await init.pause?.over()
      const response = await once(target, init)
      if (response.ok) return response
      const text = await response.text().catch(() => '')
      if (response.status !== 429) throw upstreamError(response.status, text)
      const wait = retryAfterMs(response.headers.get('retry-after'), attempt, now())
      if (attempt >= maxTries || now() - started + wait > windowMs) throw rateLimited(wait)
      await (init.pause ? init.pause.hold(wait) : sleep(wait))
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

  async function allPages(
    first: string,
    accessToken: string,
    included?: JsonApiResource[],
  ): Promise<JsonApiResource[]> {
    const cancel = new AbortController()
    const pause = createRateLimitPause(sleep, now)
    const pageText = (target: string) =>
      send(target, { accessToken, pause, signal: cancel.signal }).then((r) => r.text())
    try {
      const out: JsonApiResource[] = []
      for (const page of await readAllPages(first, origin, pageText)) {
        out.push(...page.data)
        included?.push(...page.included)
      }
      return out
    } finally {
      cancel.abort() // pages asked for past the end of the list, or after a failure, are not needed
    }
  }

  return { baseUrl, url, send, json, allPages }
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
