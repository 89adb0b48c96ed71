import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { registerAuthRoutes } from './auth-routes.ts'
import { arrivals, dmError, type FakeClientApp, type FakeContext } from './context.ts'
import { registerDataRoutes } from './data-routes.ts'
import { createFaults, type Faults } from './faults.ts'
import { registerOssRoutes } from './oss-routes.ts'
import { type SeedIds, seedDefault } from './seed.ts'
import { FakeApsState } from './state.ts'
import { registerWebhookRoutes } from './webhook-routes.ts'
import { createFakeWebhooks, type FakeWebhooks } from './webhooks.ts'

export interface FakeApsOptions {
  port?: number
  host?: string
  clientId?: string
  clientSecret?: string
  /** Registered callback URLs (empty: any). */
  callbackUrls?: string[]
  /** Seed the default hubs, project and drawings (default true). */
  seed?: boolean
  fixturesDir?: string
  accessTokenTtlSec?: number
}

export interface RequestRecord {
  method: string
  path: string
  query: string
}

/** Requests being answered right now, and the most at once since resetPeak(). */
export interface FakeLoad {
  readonly inFlight: number
  readonly peak: number
  resetPeak(): void
}

export interface FakeAps {
  url: string
  state: FakeApsState
  faults: Faults
  /** Webhook deliveries: redeliver, forge, wait for them (state.hooks, state.deliveries hold them). */
  webhooks: FakeWebhooks
  client: FakeClientApp
  /** Every request the fake received, oldest first. */
  requests: RequestRecord[]
  load: FakeLoad
  ids: SeedIds | undefined
  close(): Promise<void>
}

/** Percent-decoded text; a malformed escape leaves the text as it came. */
const decoded = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

export const FAKE_CLIENT_ID = 'fake-client-id'
export const FAKE_CLIENT_SECRET = 'fake-client-secret'

/**
 * A fake Autodesk Platform Services on loopback: authentication, Data Management, OSS and
 * Data Management webhooks, shaped as Autodesk's OpenAPI files; faults on demand (see faults.ts
 * and FakeApsState).
 */
export async function startFakeAps(options: FakeApsOptions = {}): Promise<FakeAps> {
  const state = new FakeApsState()
  if (options.accessTokenTtlSec) state.accessTokenTtlSec = options.accessTokenTtlSec
  const faults = createFaults()
  const client: FakeClientApp = {
    clientId: options.clientId ?? FAKE_CLIENT_ID,
    clientSecret: options.clientSecret ?? FAKE_CLIENT_SECRET,
    callbackUrls: options.callbackUrls ?? [],
  }
  const webhooks = createFakeWebhooks(state)
  const ctx: FakeContext = { state, faults, webhooks, client, origin: '' }
  const requests: RequestRecord[] = []
  const app = new Hono()

  let inFlight = 0
  let peak = 0
  const load: FakeLoad = {
    get inFlight() {
      return inFlight
    },
    get peak() {
      return peak
    },
    resetPeak() {
      peak = inFlight
    },
  }
  app.use('*', async (_, next) => {
    inFlight += 1
    peak = Math.max(peak, inFlight)
    try {
      await next()
    } finally {
      inFlight -= 1
    }
  })

  app.use('*', async (c, next) => {
    arrivals.set(c.req.raw, performance.now())
    const url = new URL(c.req.url)
    requests.push({ method: c.req.method, path: url.pathname, query: url.search })
    const fault = faults.take(c.req.method, decoded(url.pathname), decoded(url.search))
    if (!fault) return next()
    if (fault.retryAfter !== undefined) c.header('Retry-After', String(fault.retryAfter))
    if (fault.body !== undefined) return c.json(fault.body as object, fault.status as 400)
    if (fault.status === 429) {
      return c.json(
        {
          developerMessage: 'Rate limit exceeded. Please wait before retrying.',
          errorCode: 'RATE-LIMIT',
        },
        429,
      )
    }
    if (fault.status === 401) {
      return c.json(
        { developerMessage: 'The token is not valid or has expired.', errorCode: 'AUTH-006' },
        401,
      )
    }
    return dmError(
      c,
      fault.status,
      fault.status >= 500 ? 'Internal Server Error' : 'Fault',
      'A fault the test asked for.',
    )
  })

  registerAuthRoutes(app, ctx)
  registerDataRoutes(app, ctx)
  registerOssRoutes(app, ctx)
  registerWebhookRoutes(app, ctx)
  app.notFound((c) =>
    dmError(
      c,
      404,
      'Not Found',
      `No such endpoint: ${c.req.method} ${new URL(c.req.url).pathname}`,
    ),
  )

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      { fetch: app.fetch, port: options.port ?? 0, hostname: options.host ?? '127.0.0.1' },
      () => resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  ctx.origin = `http://${options.host ?? '127.0.0.1'}:${port}`
  const ids = options.seed === false ? undefined : seedDefault(state, options.fixturesDir)

  return {
    url: ctx.origin,
    state,
    faults,
    webhooks,
    client,
    requests,
    load,
    ids,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
