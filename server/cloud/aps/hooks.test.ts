import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { settingsFor, signInAtFake } from '../../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import { FAKE_CLIENT_ID, type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import { AppError } from '../../errors.ts'
import type { CloudContext } from '../types.ts'
import { createApsAuthProvider } from './auth-provider.ts'
import { createApsHooks, hookCallbackFor, hookCallbackUrl, hookSecretToken } from './hooks.ts'

let fake: FakeAps
let ids: SeedIds
let ctx: CloudContext
const user = { userId: 'FAKEUSER0001', name: 'Ada Lovelace', picture: '' }
const callbackUrl = 'http://127.0.0.1:9/api/boq/watches/events'
const ownCallback = `${callbackUrl}?user=FAKEUSER0001`
const secret = hookSecretToken(new Uint8Array(32).fill(7))

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  const { tokens } = await signInAtFake(createApsAuthProvider(settingsFor(fake)))
  ctx = { user, accessToken: tokens.accessToken }
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.faults.clear()
  fake.state.hooks.clear()
  fake.state.hookSecrets.clear()
})

const hooksOf = () => createApsHooks(settingsFor(fake), { callbackUrl, secret })

describe('Autodesk webhooks client against the fake', () => {
  it('the callback is on APS_CALLBACK_URL’s origin; the secret token is 64 hex digits', () => {
    expect(hookCallbackUrl('https://boq.example.com/api/aps/auth/callback')).toBe(
      'https://boq.example.com/api/boq/watches/events',
    )
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
  })

  it('creates a folder’s hook (the secret token set first), lists it and deletes it', async () => {
    const hooks = hooksOf()
    const hookId = await hooks.create(ctx, ids.drawingsId)
    expect(fake.state.hookSecrets.get(user.userId)).toBe(secret)
    expect(fake.state.hooks.get(hookId)).toMatchObject({
      event: 'dm.version.added',
      callbackUrl: ownCallback,
      scope: { folder: ids.drawingsId },
    })
    expect(await hooks.list(ctx)).toEqual([
      { hookId, callbackUrl: ownCallback, folderId: ids.drawingsId },
    ])
    await hooks.remove(ctx, hookId)
    expect(fake.state.hooks.size).toBe(0)
    expect(await hooks.list(ctx)).toEqual([])
  })

  it('sets the secret token once per person: PUT replaces one set before, POST sets the first', async () => {
    fake.state.hookSecrets.set(user.userId, 'an-older-token')
    const before = fake.requests.length
    const hooks = hooksOf()
    await hooks.create(ctx, ids.drawingsId)
    await hooks.create(ctx, ids.plansId)
    expect(fake.state.hookSecrets.get(user.userId)).toBe(secret)
    const tokenCalls = fake.requests
      .slice(before)
      .filter((r) => r.path.startsWith('/webhooks/v1/tokens'))
    expect(tokenCalls.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /webhooks/v1/tokens/@me'])

    fake.state.hookSecrets.clear()
    const fresh = fake.requests.length
    await hooksOf().create(ctx, ids.readOnlyId)
    expect(fake.state.hookSecrets.get(user.userId)).toBe(secret)
    const firstCalls = fake.requests
      .slice(fresh)
      .filter((r) => r.path.startsWith('/webhooks/v1/tokens'))
    expect(firstCalls.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /webhooks/v1/tokens/@me',
      'POST /webhooks/v1/tokens',
    ])
  })

  it('reuses the folder’s hook left from before (Autodesk answers 409 to a second one)', async () => {
    const first = await hooksOf().create(ctx, ids.drawingsId)
    expect(await hooksOf().create(ctx, ids.drawingsId)).toBe(first)
    expect(fake.state.hooks.size).toBe(1)
  })

  it('a second person watching the same folder gets a hook of their own', async () => {
    expect(hookCallbackFor(callbackUrl, 'A B/C')).toBe(`${callbackUrl}?user=A+B%2FC`)
    const first = await hooksOf().create(ctx, ids.drawingsId)
    const scopes = ['data:read', 'data:write', 'data:create']
    const grant = fake.state.issueTokens('FAKEUSER0002', FAKE_CLIENT_ID, scopes, scopes)
    const other: CloudContext = {
      user: { userId: 'FAKEUSER0002', name: 'Grace Hopper', picture: '' },
      accessToken: grant.accessToken,
    }
    const second = await hooksOf().create(other, ids.drawingsId)
    expect(second).not.toBe(first)
    expect(fake.state.hooks.get(second)).toMatchObject({
      createdBy: 'FAKEUSER0002',
      callbackUrl: `${callbackUrl}?user=FAKEUSER0002`,
    })
    expect((await hooksOf().list(other)).map((h) => h.hookId)).toEqual([second])
    expect(await hooksOf().create(other, ids.drawingsId)).toBe(second)
  })

  it('a hook already gone deletes fine; other failures are the app’s errors', async () => {
    const hooks = hooksOf()
    await hooks.remove(ctx, '1fcd3e30-9f3f-11e7-951f-0fd5337ed5ce')
    fake.faults.add({ path: '/webhooks/v1/systems', method: 'POST', status: 500 })
    await expect(hooks.create(ctx, ids.drawingsId)).rejects.toMatchObject({ status: 502 })
    await expect(hooks.create(ctx, 'not a folder')).rejects.toBeInstanceOf(AppError)
  })
})
