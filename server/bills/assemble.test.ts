import { describe, expect, it } from 'vitest'
import type { ProjectBill } from '#contract/project-bills.ts'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { billLine, floorPlanBoq } from '#contract/testing/boq.ts'
import { priceWithTables } from '../boq/price/price.ts'
import type { JsonApiResource } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { BillTask } from '../jobs/bill-tasks.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { contextFor } from '../testing/jobs/fakes.ts'
import { assembleBill } from './assemble.ts'
import { keptPricings } from './kept-pricings.ts'
import { type BillStore, partKeyText } from './types.ts'
import { projectBillFiles } from './write/project-files.ts'

// Two drawings in folder f1, each with a finished job whose kept bill measures 10 m of walls (20
// for version 2 of B), priced at extraction with the rules then (A's with version 1, B's before
// any were saved). The rules price the walls at their version as rate; the test sets the
// version. The pool makes parts as the real one does, and says what it did.

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const wallsAt = (rate: number): TakeoffRule[] => [
  { match: 'length', code: '22.10', description: 'Walls', unit: 'm', rate },
]

function keptBill(metres: number, rulesVersion: number) {
  const measured = floorPlanBoq({
    bill: [
      billLine({
        ref: 'B1',
        kind: 'length',
        description: 'Walls',
        breakdown: [{ quantity: metres, count: 1, handles: ['1A'], quantities: [metres] }],
      }),
    ],
    warnings: [],
  })
  if (rulesVersion === 0) return measured
  const tables = { rules: wallsAt(rulesVersion), classification: [], versions: { rulesVersion } }
  return { ...measured, priced: priceWithTables(measured, tables) }
}

function setUp(
  sources: Pick<ProjectBill, 'folderIds' | 'itemIds'> = { folderIds: ['f1'], itemIds: [] },
) {
  let rulesVersion = 1
  let rulesCheck = true
  const metresOf = (jobId: string) => (jobId === 'b2' ? 20 : 10)
  const jobs: JobRecord[] = []
  const kept = new Map<string, Uint8Array>()
  const addJob = (id: string, storageId: string, pricedWith: number) => {
    jobs.push({
      id,
      status: 'succeeded',
      userId: 'ann',
      fileName: `${id}.dwg`,
      projectId: 'p1',
      fileFolderId: 'f1',
      fileStorageId: storageId,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      attempts: 1,
      result: { fileName: 'x', itemId: 'x', versionNumber: 1, jsonKept: true },
      pricedWith: { rulesVersion: pricedWith, classificationVersion: 0, settingsVersion: 0 },
    })
    kept.set(id, encode(keptBill(metresOf(id), pricedWith)))
  }
  addJob('a1', 'a-v1', 1)
  addJob('b1', 'b-v1', 0)
  const versions = new Map<string, JsonApiResource[]>()
  const version = (storage: string, number: number): JsonApiResource => ({
    id: storage,
    type: 'versions',
    attributes: { versionNumber: number },
    relationships: { storage: { data: { id: storage, type: 'objects' } } },
  })
  versions.set('A', [version('a-v1', 1)])
  versions.set('B', [version('b-v1', 1)])
  /** What the pool did, in order: `read a1` (taken as it is), `priced b1`, `sheet b1`. */
  const done: string[] = []
  const jobOf = (json: Uint8Array) => {
    const text = new TextDecoder().decode(json)
    return [...kept].find(([, bytes]) => new TextDecoder().decode(bytes) === text)?.[0]
  }
  const pool: BillPool = {
    async run(task: BillTask) {
      if (task.kind === 'project-bill' && 'part' in task) {
        done.push(`${task.price ? 'priced' : 'read'} ${jobOf(task.part)}`)
        const price = task.price && (rulesCheck ? task.price : { ...task.price, rules: broken })
        return { bytes: await projectBillFiles({ ...task, ...(price ? { price } : {}) }) }
      }
      if (task.kind !== 'price') throw new Error('parts and prices only')
      done.push(`sheet ${task.jobId}`)
      return { bytes: encode({ jobId: task.jobId, priced: keptBill(10, rulesVersion).priced }) }
    },
    async close() {},
  }
  const store = {
    listByUser: async () => [...jobs].reverse(),
    readResult: async (id: string) => kept.get(id),
  } as unknown as JobStore
  const keptParts = new Map<string, Uint8Array>()
  const bills: Pick<BillStore, 'parts' | 'keepPart'> = {
    async parts(keys) {
      return new Map(
        keys.flatMap((key) => {
          const part = keptParts.get(partKeyText(key))
          return part ? [[partKeyText(key), part] as const] : []
        }),
      )
    },
    async keepPart(key, part) {
      keptParts.set(partKeyText(key), part)
    },
  }
  const rules = {
    rules: async (_projectId: string, kind: string) =>
      kind === 'rules'
        ? { version: rulesVersion, rows: wallsAt(rulesVersion), savedBy: 'ann', savedAt: '' }
        : undefined,
    billSettings: async () => undefined,
  } as unknown as RulesStore
  const cloud = {
    contents: async (_ctx: unknown, _hub: string, _project: string, folderId?: string) => {
      if (folderId !== 'f1') throw new AppError(404, 'There is no such folder.')
      return [
        { id: 'A', type: 'items', attributes: { displayName: 'A.dwg' } },
        { id: 'B', type: 'items', attributes: { displayName: 'B.dwg' } },
      ] as JsonApiResource[]
    },
    versions: async (_ctx: unknown, _hub: string, _project: string, itemId: string) => {
      const found = versions.get(itemId)
      if (!found) throw new AppError(404, 'There is no such item.')
      return found
    },
  }
  const bill: ProjectBill = {
    id: 'bill',
    projectId: 'p1',
    name: 'Plans',
    ...sources,
    createdBy: 'Ann',
    createdAt: '',
  }
  let process = keptPricings()
  const assemble = (options?: { withPricedBills?: boolean }) =>
    assembleBill(
      { store, bills, rules, cloud, pool, kept: process },
      contextFor('ann'),
      { hubId: 'h1' },
      bill,
      options,
    )
  return {
    assemble,
    /** What the pool did since the last call. */
    done() {
      return done.splice(0).sort()
    },
    keptParts,
    /** Another process, or this one restarted: nothing kept in memory. */
    restart() {
      process = keptPricings()
    },
    /** B's version 2, its job priced at extraction with the rules now. */
    newVersion() {
      versions.set('B', [version('b-v2', 2), ...(versions.get('B') ?? [])])
      addJob('b2', 'b-v2', rulesVersion)
    },
    newRules() {
      rulesVersion++
    },
    rulesNoLongerCheck() {
      rulesCheck = false
    },
    /** B's kept bill in feet (its drawing billed as imperial, or in units it stated). */
    bBilledInFeet() {
      const bill = keptBill(metresOf('b1'), 0)
      kept.set('b1', encode({ ...bill, units: { ...bill.units, length: 'ft', area: 'ft²' } }))
    },
  }
}

/** Rules that a save once let through and the engine refuses now. */
const broken: TakeoffRule[] = [{ match: 'length', code: '22.10', quantity: 'length *' }]

describe('assembling a project bill', () => {
  it('takes a bill of record priced with the tables now as it is, prices the others, keeps each part', async () => {
    const bills = setUp()
    const first = await bills.assemble()
    expect(bills.done()).toEqual(['priced b1', 'read a1'])
    expect(first.answer.priced.total).toBe(20)
    expect(bills.keptParts.size).toBe(2)

    const again = await bills.assemble()
    expect(bills.done()).toEqual([])
    expect(again.answer).toEqual(first.answer)

    // Another process finds both parts kept: nothing is read or priced.
    bills.restart()
    expect((await bills.assemble()).answer).toEqual(first.answer)
    expect(bills.done()).toEqual([])

    bills.newVersion()
    const newer = await bills.assemble()
    expect(bills.done()).toEqual(['read b2'])
    expect(newer.answer.priced.total).toBe(30)
    expect(newer.answer.drawings.find((one) => one.itemId === 'B')).toMatchObject({
      versionNumber: 2,
      jobId: 'b2',
    })

    bills.newRules()
    const repriced = await bills.assemble()
    expect(bills.done()).toEqual(['priced a1', 'priced b2'])
    expect(repriced.answer.priced.total).toBe(60)
  })

  it('gives each drawing’s bill priced with the tables now for files', async () => {
    const bills = setUp()
    await bills.assemble()
    bills.done()
    const withBills = await bills.assemble({ withPricedBills: true })
    // A's bill of record is as the tables now price it; B's is priced for its sheet.
    expect(bills.done()).toEqual(['sheet b1'])
    expect(withBills.priced.map((one) => one.fileName)).toEqual(['A.dwg', 'B.dwg'])
    const rates = withBills.priced.map(
      (one) => JSON.parse(new TextDecoder().decode(one.json)).priced.items[0].rate,
    )
    expect(rates).toEqual([1, 1])
    expect((await bills.assemble()).priced).toEqual([])
  })

  it('stays measured when the rules no longer check, saying so with each drawing', async () => {
    const bills = setUp()
    bills.newRules()
    bills.rulesNoLongerCheck()
    const { answer } = await bills.assemble()
    expect(bills.done()).toEqual(['priced a1', 'priced b1'])
    expect(answer.drawings.map((one) => [one.fileName, one.state])).toEqual([
      ['A.dwg', 'billed'],
      ['B.dwg', 'billed'],
    ])
    expect(answer.priced).toEqual({
      units: { length: 'm', area: 'm²' },
      items: [],
      sections: [],
      total: 0,
    })
    expect(answer.measured).toEqual([
      {
        kind: 'length',
        description: 'Walls',
        unit: 'm',
        quantity: 20,
        byDrawing: [
          { itemId: 'A', quantity: 10 },
          { itemId: 'B', quantity: 10 },
        ],
      },
    ])
    expect(answer.warnings.map((one) => [one.fileName, one.warning])).toEqual(
      ['A.dwg', 'B.dwg'].map((fileName) => [
        fileName,
        expect.stringMatching(
          /^Not priced: the project’s rules no longer check \(row 1: formula 'length \*'.*\)\. Its measured lines are in the bill; it is priced once the rules are corrected\.$/,
        ),
      ]),
    )
    // Nothing to price a sheet with: the workbook has the Summary and Measured sheets only.
    expect((await bills.assemble({ withPricedBills: true })).priced).toEqual([])
  })

  it('says a folder or drawing of the bill that is gone from the cloud, and assembles the rest', async () => {
    const bills = setUp({ folderIds: ['f1', 'f-deleted'], itemIds: ['A', 'deleted-item'] })
    const { answer } = await bills.assemble()
    expect(answer.drawings.map((one) => one.itemId).sort()).toEqual(['A', 'B'])
    expect(answer.priced.total).toBe(20)
    expect(answer.warnings).toEqual([
      {
        itemId: 'f-deleted',
        fileName: 'A folder of this bill',
        warning:
          'The folder is no longer in the cloud (deleted, moved, or no longer yours to see): its drawings are left out.',
      },
      {
        itemId: 'deleted-item',
        fileName: 'A drawing of this bill',
        warning:
          'The drawing is no longer in the cloud (deleted, moved, or no longer yours to see): left out.',
      },
    ])
  })

  it('leaves out a drawing billed in other units, naming them and how to bring it in', async () => {
    const bills = setUp()
    bills.bBilledInFeet()
    const { answer } = await bills.assemble()
    expect(answer.priced.total).toBe(10)
    const b = answer.drawings.find((one) => one.itemId === 'B')
    expect(b?.state).toBe('other-units')
    expect(b?.reason).toBe(
      'Billed in ft and ft², not in this bill’s m and m²: left out. Extract it again with its units chosen (Units, and If the drawing has no units) to bring it in.',
    )
    expect(answer.measured.map((line) => line.byDrawing.map((share) => share.itemId))).toEqual([
      ['A'],
    ])
  })
})
