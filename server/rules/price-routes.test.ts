import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { AppError } from '../errors.ts'
import { errorResponse } from '../http/errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { perUserLimit } from '../jobs/per-user-limit.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { stallingBillPool, testBillPool } from '../testing/jobs/bill-pool.ts'
import { contextFor, createFakeCloud, newJobFor } from '../testing/jobs/fakes.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import { openTempRulesStore } from '../testing/rules/temp-store.ts'
import { STALL_CODE } from '../testing/stall-code.ts'
import { priceRoutes } from './price-routes.ts'
import type { RulesStore } from './store/types.ts'

// The price routes on their own, in process: the user comes from the `x-user` header, and which
// projects each user can see from `seen` (the cloud's project lists, as the rules routes ask them).

let store: JobStore
let rules: RulesStore
let app: Hono
let job: JobRecord
const seen = new Map<string, Set<string>>()
/** Whether the cloud takes the written workbook. */
let uploads: 'taken' | 'refused'

beforeEach(async () => {
  store = await openTempJobStore('boq-price-routes-')
  rules = await openTempRulesStore('boq-price-routes-rules-')
  seen.clear()
  uploads = 'taken'
  const fake = createFakeCloud()
  job = (await store.submit(newJobFor('ann', 's1'), { maxActivePerUser: 5 })).job
  app = routesApp(testBillPool(), fake)
})

function routesApp(bills: BillPool, fake = createFakeCloud()): Hono {
  const app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/boq',
    priceRoutes({
      store,
      rules,
      bills,
      heavy: perUserLimit(2),
      cloud: {
        ...fake.cloud,
        upload: async (ctx, request) => {
          if (uploads === 'refused') throw new AppError(502, 'The cloud refused the workbook.')
          return fake.cloud.upload(ctx, request)
        },
      },
      withCloud: async (c, fn) => {
        const user = c.req.header('x-user')
        if (!user) throw new AppError(401, 'You are not signed in.')
        return fn(contextFor(user))
      },
      visibleProject: async (ctx, projectId) => {
        if (!seen.get(ctx.user.userId)?.has(projectId)) {
          throw new AppError(404, 'There is no such project.')
        }
        return { name: projectId }
      },
    }),
  )
  return app
}

afterEach(async () => {
  await store.close()
  await rules.close()
})

const post = (route: string, body?: unknown) =>
  app.request(`/api/boq/jobs/${job.id}/${route}`, {
    method: 'POST',
    headers: { 'x-user': 'ann', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

/** The job finished, its bill kept, and a first version of its project's rules saved. */
async function finished(): Promise<void> {
  await store.claim()
  const bytes = (text: string) => new TextEncoder().encode(text)
  await store.succeed(
    job.id,
    { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true },
    { xlsx: bytes('x'), csv: bytes('c'), json: bytes(JSON.stringify(floorPlanBoq())) },
  )
  await rules.saveRules(job.projectId, 'rules', 0, [{ match: 'count', code: 'A' }], 'Ann')
}

describe('price routes', () => {
  it('answers 404 to the job’s owner once they can no longer see its project', async () => {
    for (const route of ['price', 'reprice']) {
      const response = await post(route)
      expect({ status: response.status, body: await response.text() }).toEqual({
        status: 404,
        body: expect.stringMatching(/no such project/),
      })
    }
  })

  it('goes on to the job itself while they can (an unfinished job has no bill: 409)', async () => {
    seen.set('ann', new Set([job.projectId]))
    for (const route of ['price', 'reprice']) expect((await post(route)).status).toBe(409)
  })

  it('records the versions re-priced with only once the asked write-back is done', async () => {
    seen.set('ann', new Set([job.projectId]))
    await finished()
    uploads = 'refused'
    expect((await post('reprice', { writeBack: true })).status).toBe(502)
    expect((await store.get(job.id))?.pricedWith).toBeUndefined()
    uploads = 'taken'
    const response = await post('reprice', { writeBack: true })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ written: { versionNumber: 1 } })
    expect((await store.get(job.id))?.pricedWith).toEqual({
      rulesVersion: 1,
      classificationVersion: 0,
      settingsVersion: 0,
    })
  })

  it('reads the bodies with their contract schemas, a 400 naming the row or the field', async () => {
    seen.set('ann', new Set([job.projectId]))
    const refused = async (route: string, body: unknown) => {
      const response = await post(route, body)
      return { status: response.status, body: await response.text() }
    }
    expect(
      await refused('price', { rules: [{ match: 'count' }, { match: 'count', rate: '9' }] }),
    ).toEqual({ status: 400, body: expect.stringMatching(/^Row 2, rate: .*number/) })
    expect(await refused('price', { classification: [{ code: 'A' }] })).toEqual({
      status: 400,
      body: expect.stringMatching(/^Classification row 1, title: /),
    })
    expect(await refused('price', { rules: 'all' })).toEqual({
      status: 400,
      body: expect.stringMatching(/^rules: /),
    })
    expect(await refused('reprice', { writeBack: 'yes' })).toEqual({
      status: 400,
      body: expect.stringMatching(/^writeBack: .*boolean/),
    })
  })

  it('stops a preview past its time budget, saying so; the person’s share is theirs again', async () => {
    seen.set('ann', new Set([job.projectId]))
    await finished()
    const bills = stallingBillPool({ price: 1_000 })
    app = routesApp(bills)
    try {
      const stuck = { rules: [{ match: 'count', code: STALL_CODE }] }
      // Both of Ann's places (perUserLimit(2)) taken by pricings that never end by themselves.
      const answers = await Promise.all([post('price', stuck), post('price', stuck)])
      for (const response of answers) {
        expect({ status: response.status, body: await response.text() }).toEqual({
          status: 422,
          body: 'Pricing this bill took longer than 1 s; stopped.',
        })
      }
      // Her next preview is priced at once: neither her share nor the pool is held.
      const next = await post('price', { rules: [{ match: 'count', block: '*', code: 'A' }] })
      expect(next.status).toBe(200)
      expect(await next.json()).toMatchObject({ jobId: job.id, rulesVersion: null })
    } finally {
      await bills.close()
    }
  })
})
