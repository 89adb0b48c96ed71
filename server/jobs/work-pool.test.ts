import { afterEach, describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { createBoqEngine } from '../boq/run/engine.ts'
import type { WorkerPool } from '../boq/run/pool/pool.ts'
import { knownDrawing } from '../testing/boq/known-drawing.ts'
import { STALLING_TASKS_URL } from '../testing/jobs/bill-pool.ts'
import { CRASH_CODE, STALL_CODE } from '../testing/stall-code.ts'
import { billLane } from './bill-pool.ts'
import type { ChangeBillTask, PriceTask } from './bill-tasks.ts'
import { createWorkPool, LANES } from './work-pool.ts'

// The server's one pool: drawings read in the background never take the threads of a person's
// change bills and pricing, and a bill task's crash ends only its own thread.

const STALLING_ENGINE_WORKER = new URL('../testing/boq/stalling-engine-worker.ts', import.meta.url)

function changeBill(): ChangeBillTask {
  const bytes = () => new TextEncoder().encode(JSON.stringify(floorPlanBoq({})))
  return {
    kind: 'change-bill',
    before: bytes(),
    after: bytes(),
    from: { jobId: 'a', fileName: 'plan.dwg', versionNumber: 1 },
    to: { jobId: 'b', fileName: 'plan.dwg', versionNumber: 2 },
    format: 'json',
  }
}

function pricing(code: string): PriceTask {
  return {
    kind: 'price',
    bill: new TextEncoder().encode(JSON.stringify(floorPlanBoq({}))),
    jobId: 'j1',
    rules: [{ match: 'count', block: '*', code, unit: 'nr', rate: 2 }],
    rulesVersion: null,
    classification: [],
    classificationVersion: null,
  }
}

/** A drawing whose pricing never ends by itself (stalling-engine-worker.ts): a long read. */
const longRead = {
  bytes: new TextEncoder().encode(knownDrawing()),
  fileName: 'known.dxf',
  pricing: {
    rules: [{ match: 'count', block: '*', code: STALL_CODE, unit: 'nr', rate: 2 } as const],
    classification: [],
  },
}

let pool: WorkerPool | undefined
afterEach(async () => {
  await pool?.close()
  pool = undefined
})

describe("the server's worker pool", () => {
  it('answers a change bill while its drawings’ lane is held by long reads', async () => {
    pool = createWorkPool({ workers: 1, workerUrl: STALLING_ENGINE_WORKER })
    const engine = createBoqEngine({
      workers: 1,
      pricingBudgetMs: 120_000,
      pool: { pool, lane: LANES.drawings },
    })
    let readsSettled = 0
    // The one drawing thread is held, and more reads wait behind it than the pool has threads.
    const reads = [longRead, longRead, longRead, longRead, longRead].map((input) =>
      engine.extractFiles(input, ['json']).finally(() => {
        readsSettled++
      }),
    )
    await engine.ready()
    const bills = billLane(pool, LANES.bills)
    const answer = await bills.run(changeBill())
    expect('bytes' in answer && JSON.parse(new TextDecoder().decode(answer.bytes))).toMatchObject({
      from: { jobId: 'a' },
      to: { jobId: 'b' },
    })
    const priced = await bills.run(pricing('A'))
    expect('bytes' in priced).toBe(true)
    expect(readsSettled).toBe(0)
    // Closing the engine ends its reads, not the pool.
    await engine.close()
    for (const read of reads) await expect(read).rejects.toThrow(/closed/)
    expect('bytes' in (await bills.run(changeBill()))).toBe(true)
  })

  it('a bill task that crashes ends only its thread: a drawing read beside it and the next task are answered', async () => {
    pool = createWorkPool({ workers: 1, tasksUrl: STALLING_TASKS_URL })
    const engine = createBoqEngine({ workers: 1, pool: { pool, lane: LANES.drawings } })
    try {
      const read = engine.extract({ bytes: longRead.bytes, fileName: 'known.dxf' })
      const bills = billLane(pool, LANES.bills)
      const crashed = await bills.run(pricing(CRASH_CODE)).catch((e: unknown) => e)
      expect(crashed).toBeInstanceOf(Error)
      expect((await read).blocks.length).toBeGreaterThan(0)
      const next = await bills.run(pricing('A'))
      expect('bytes' in next && JSON.parse(new TextDecoder().decode(next.bytes))).toMatchObject({
        jobId: 'j1',
        priced: { items: [expect.objectContaining({ code: 'A' })] },
      })
      expect(engine.stats().workersReplaced).toBe(1)
    } finally {
      await engine.close()
    }
  })
})
