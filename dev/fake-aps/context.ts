import type { Context } from 'hono'
import type { Faults } from './faults.ts'
import type { AccessGrant, FakeApsState } from './state.ts'
import type { FakeWebhooks } from './webhooks.ts'

export interface FakeClientApp {
  clientId: string
  clientSecret: string
  /** Registered callback URLs; empty: any http(s) URL is accepted. */
  callbackUrls: string[]
}

export interface FakeContext {
  state: FakeApsState
  faults: Faults
  webhooks: FakeWebhooks
  client: FakeClientApp
  /** The fake's own origin, known once it listens. */
  origin: string
}

/** Autodesk-style error bodies. */
export function dmError(c: Context, status: number, title: string, detail: string) {
  return c.json(
    {
      jsonapi: { version: '1.0' },
      errors: [
        {
          id: crypto.randomUUID(),
          status: String(status),
          code: title.replace(/\W+/g, '_').toUpperCase(),
          title,
          detail,
        },
      ],
    },
    status as 400,
  )
}

export function bearer(c: Context, ctx: FakeContext): AccessGrant | undefined {
  const header = c.req.header('authorization') ?? ''
  const token = header.startsWith('Bearer ') ? header.slice(7) : ''
  const grant = ctx.state.accessTokens.get(token)
  if (!grant || grant.expiresAt <= Date.now()) return undefined
  return grant
}

export function unauthorized(c: Context) {
  return c.json(
    {
      developerMessage: 'The token is not valid or has expired.',
      errorCode: 'AUTH-006',
      more_info: 'https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/error_handling/',
    },
    401,
  )
}

export function hasScope(grant: AccessGrant, ...anyOf: string[]): boolean {
  return anyOf.some((s) => grant.scope.includes(s))
}

/** When each request reached the fake (slow pages count their delay from there). */
export const arrivals = new WeakMap<Request, number>()

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
