import { afterAll, describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { AppError, BusyError } from '../errors.ts'
import { stallingBillPool } from '../testing/jobs/bill-pool.ts'
import { STALL_CODE } from '../testing/stall-code.ts'
import { type BillPool, createBillPool } from './bill-pool.ts'
import type { ChangeBillTask, PriceTask } from './bill-tasks.ts'
import { perUserLimit } from './per-user-limit.ts'

// Heavy work is bounded: per user (429) and in the bill pool's queue (503), each with Retry-After.

const pools: BillPool[] = []
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()))
})

function task(lines: number): ChangeBillTask {
  const bytes = () => new TextEncoder().encode(JSON.stringify(floorPlanBoq({})))
  const big = floorPlanBoq({})
  big.bill = Array.from({ length: lines }, (_, i) => ({
    ref: `B${i + 1}`,
    kind: 'length' as const,
    description: `Linework on layer L${i}`,
    quantity: i + 1,
    unit: 'm',
    layer: `L${i}`,
    breakdown: [
      {
        label: 'lines',
        layer: `L${i}`,
        kind: 'line',
        count: 1,
        quantity: i + 1,
        handles: [`${i}`],
      },
    ],
  }))
  return {
    kind: 'change-bill',
    before: bytes(),
    after: new TextEncoder().encode(JSON.stringify(big)),
    from: { jobId: 'a', fileName: 'plan.dwg', versionNumber: 1 },
    to: { jobId: 'b', fileName: 'plan.dwg', versionNumber: 2 },
    format: 'xlsx',
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

describe('one user never holds everyone', () => {
  it('lets a user run so many heavy requests at once, then answers 429 with Retry-After', async () => {
    const limit = perUserLimit(2)
    let open = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const held = [limit.one('ann', () => gate), limit.one('ann', () => gate)]
    const refused = await limit.one('ann', async () => 'ran').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(BusyError)
    expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 2 })
    expect((refused as Error).message).toMatch(
      /^You already have 2 change bills or pricings running \(a table being read counts as one\)/,
    )
    // Another user is not held by Ann's.
    expect(await limit.one('bob', async () => 'ran')).toBe('ran')
    open()
    await Promise.all(held)
    expect(await limit.one('ann', async () => 'ran')).toBe('ran')
  })

  it('makes the change bill in its threads, and says it is busy (503) past its queue', async () => {
    const pool = createBillPool({ threads: 1, maxWaiting: 1 })
    pools.push(pool)
    const answer = await pool.run(task(10))
    expect('bytes' in answer && new TextDecoder().decode(answer.bytes.subarray(0, 2))).toBe('PK')
    const runs = Array.from({ length: 4 }, () =>
      pool.run(task(2_000)).then(
        () => 'done',
        (error: unknown) => error,
      ),
    )
    const outcomes = await Promise.all(runs)
    const busy = outcomes.filter((o) => o instanceof BusyError)
    expect(busy.length).toBeGreaterThan(0)
    expect(busy[0]).toMatchObject({ status: 503, retryAfterSeconds: 5 })
    expect(outcomes.filter((o) => o === 'done').length).toBeGreaterThanOrEqual(1)
    expect(outcomes.filter((o) => o !== 'done' && !(o instanceof BusyError))).toEqual([])
  })

  it('says which kept bill is not a bill of this version of BOQ', async () => {
    const pool = createBillPool({ threads: 1 })
    pools.push(pool)
    // Each task's bytes are handed over to the pool's thread: a new copy for each.
    const old = () => new TextEncoder().encode('{"schema":"boq","version":1}')
    expect(await pool.run({ ...task(1), after: old() })).toEqual({ stale: 1 })
    expect(await pool.run({ ...task(1), before: old() })).toEqual({ stale: 0 })
  })

  it('ends a task past its time budget with its thread, says so, and goes on', async () => {
    const pool = stallingBillPool({ price: 1_000 })
    pools.push(pool)
    // One thread: the second pricing waits for it behind the one that never ends.
    const stuck = pool.run(pricing(STALL_CODE)).catch((e: unknown) => e)
    const next = pool.run(pricing('A'))
    const stopped = await stuck
    expect(stopped).toBeInstanceOf(AppError)
    expect(stopped).toMatchObject({
      status: 422,
      message: 'Pricing this bill took longer than 1 s; stopped.',
    })
    // The budget is of running, not of waiting: the one behind is priced by a new thread.
    const answer = await next
    expect('bytes' in answer && JSON.parse(new TextDecoder().decode(answer.bytes))).toMatchObject({
      jobId: 'j1',
      priced: { items: [expect.objectContaining({ code: 'A' })] },
    })
  })

  it('reads a table in its threads: the rows, or the problem in words', async () => {
    const pool = createBillPool({ threads: 1 })
    pools.push(pool)
    const table = (text: string) => ({
      kind: 'table' as const,
      table: 'rules' as const,
      format: 'csv' as const,
      bytes: new TextEncoder().encode(text),
    })
    expect(await pool.run(table('match,code\ncount,A\n'))).toEqual({
      rows: [{ match: 'count', code: 'A' }],
    })
    expect(await pool.run(table('match,colour\ncount,red\n'))).toEqual({
      rulesError: expect.stringMatching(/^row 1: unknown column 'colour'/),
    })
  })
})
