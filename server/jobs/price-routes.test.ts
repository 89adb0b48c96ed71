import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../errors.ts'
import { errorResponse } from '../http/errors.ts'
import { priceRoutes } from './price-routes.ts'
import { contextFor, createFakeCloud, newJobFor } from './testing/fakes.ts'
import { openTempJobStore } from './testing/temp-store.ts'
import type { JobRecord, JobStore } from './types.ts'

// The price routes on their own, in process: the user comes from the `x-user` header, and which
// projects each user can see from `seen` (the cloud's project lists, as the rules routes ask them).

let store: JobStore
let app: Hono
let job: JobRecord
const seen = new Map<string, Set<string>>()

beforeEach(async () => {
  store = await openTempJobStore('boq-price-routes-')
  seen.clear()
  job = (await store.submit(newJobFor('ann', 's1'), { maxActivePerUser: 5 })).job
  app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/boq',
    priceRoutes({
      store,
      cloud: createFakeCloud().cloud,
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
})

afterEach(async () => {
  await store.close()
})

const post = (route: string) =>
  app.request(`/api/boq/jobs/${job.id}/${route}`, { method: 'POST', headers: { 'x-user': 'ann' } })

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
})
