import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settingsFor, signInAtFake } from '../../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import type { CloudContext } from '../../auth/types.ts'
import { createApsAuthProvider } from '../../cloud/aps/auth-provider.ts'
import { createApsHooks, hookSecretToken } from '../../cloud/aps/hooks.ts'
import type { WatchRecord } from '../store/types.ts'
import { apsWatchSource } from './aps-source.ts'

let fake: FakeAps
let ids: SeedIds
let ctx: CloudContext

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  const { tokens } = await signInAtFake(createApsAuthProvider(settingsFor(fake)))
  ctx = {
    user: { userId: 'FAKEUSER0001', name: 'Ada', picture: '' },
    accessToken: tokens.accessToken,
  }
})
afterAll(() => fake.close())

const watchOn = (fileFolderId: string): WatchRecord => ({
  id: 'w1',
  userId: 'FAKEUSER0001',
  projectId: ids.projectId,
  fileFolderId,
  createdAt: '2025-03-01T09:00:00.000Z',
  updatedAt: '2025-03-01T09:00:00.000Z',
  state: 'active',
})

describe('the Autodesk watch source', () => {
  it('begins with the folder’s hook and ends by deleting it (once gone, ending again is fine)', async () => {
    const source = apsWatchSource(
      createApsHooks(settingsFor(fake), {
        callbackUrl: 'http://127.0.0.1:9/api/boq/watches/events',
        secret: hookSecretToken(new Uint8Array(32)),
      }),
    )
    const watch = watchOn(ids.drawingsId)
    const { hookId, existing } = await source.begin(ctx, watch)
    expect(existing).toBeUndefined()
    expect(fake.state.hooks.get(hookId ?? '')?.scope.folder).toBe(ids.drawingsId)
    await source.end(ctx, { ...watch, hookId })
    expect(fake.state.hooks.size).toBe(0)
    await source.end(ctx, { ...watch, hookId })
  })
})
