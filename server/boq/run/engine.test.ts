import { gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { decodeGeometry, geometryCounts } from '#contract/drawing-geometry.ts'
import { fixture, fixtureNames } from '../../testing/boq/fixtures.ts'
import { knownDrawing } from '../../testing/boq/known-drawing.ts'
import { STALL_CODE } from '../../testing/stall-code.ts'
import { BoqError } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import { createReader, createResettableReader } from '../read/libredwg.ts'
import { type BoqEngine, createBoqEngine } from './engine.ts'
import { extractBoq } from './extract.ts'

const dwg = (name = 'sample_2018.dwg') => ({ bytes: fixture(name), fileName: name })
const dxf = () => ({ bytes: new TextEncoder().encode(knownDrawing()), fileName: 'known.dxf' })

describe('workers stay, reader instances do not', () => {
  let engine: BoqEngine | undefined
  afterEach(async () => {
    await engine?.close()
    engine = undefined
  })

  it('a second file in the same worker gets a new instance', async () => {
    engine = createBoqEngine({ workers: 1 })
    await engine.extract(dwg())
    const first = engine.stats().last
    await engine.extract(dwg('example_2018.dwg'))
    const second = engine.stats().last
    expect(first && second).toBeTruthy()
    expect(second?.worker).toBe(first?.worker) // the same worker…
    expect(second?.reader).toBe((first?.reader ?? 0) + 1) // …with its next, fresh instance
    expect(engine.stats().workersStarted).toBe(1)
  })

  it('memory stays bounded over 50 files in one worker', async () => {
    engine = createBoqEngine({ workers: 1 })
    const names = ['sample_2018.dwg', 'sample_2000.dwg', 'r14_v.dwg', '2000_entities-2d.dwg']
    let maxLive = 0
    let maxHeap = 0
    let rssBefore = 0
    let rssPeak = 0
    for (let i = 0; i < 50; i++) {
      const boq = await engine.extract(dwg(names[i % names.length]))
      expect(boq.schema).toBe('boq')
      // Growth is counted from after the first file: on some machines an instance's WebAssembly
      // memory (1 GB, declared by the binding) is resident as a whole from its first read, once.
      if (i === 0) rssBefore = rssPeak = process.memoryUsage.rss()
      const last = engine.stats().last
      maxLive = Math.max(maxLive, last?.liveReaders ?? Infinity)
      maxHeap = Math.max(maxHeap, last?.heapMb ?? Infinity)
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
    }
    const stats = engine.stats()
    expect(stats.files).toBe(50)
    expect(stats.last?.reader).toBe(50) // 50 files, 50 instances…
    // …and the used ones are released: no recycling was needed, the heap stayed small.
    expect(stats.workersStarted).toBe(1)
    expect(maxLive).toBeLessThanOrEqual(16)
    expect(maxHeap).toBeLessThan(128)
    // The whole process (this test, the worker, its instances) grew by far less than 512 MB over
    // the next 49 files, each read by a new instance.
    expect((rssPeak - rssBefore) / 1024 / 1024).toBeLessThan(512)
  })

  it('a worker over the memory bound is replaced, and the next file is read', async () => {
    engine = createBoqEngine({ workers: 1, recycleAboveMb: 0 })
    await engine.extract(dxf())
    await engine.extract(dxf())
    const stats = engine.stats()
    expect(stats.workersReplaced).toBe(2)
    expect(stats.workersStarted).toBe(3)
    expect(stats.last?.reader).toBe(1)
  })

  it('closed while a file waits for its worker, the file is refused and no worker starts again', async () => {
    engine = createBoqEngine({ workers: 1 })
    const waiting = engine.extract(dwg()) // the worker is still making its reader
    await engine.close()
    await expect(waiting).rejects.toThrow(/closed/)
    expect(engine.stats().workersStarted).toBe(1)
  })

  it('after a timeout the worker is replaced; the engine goes on', async () => {
    engine = createBoqEngine({ workers: 1, timeoutMs: 1 })
    const error = await engine.extract(dwg('example_2018.dwg')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BoqError)
    expect((error as BoqError).kind).toBe('timeout')
    expect(engine.stats().workersReplaced).toBe(1)
    await engine.ready()
    expect(engine.stats().workersStarted).toBe(2)
  })

  it('two workers read two files at once, each with its own instance', async () => {
    engine = createBoqEngine({ workers: 2 })
    const boqs = await Promise.all([engine.extract(dxf()), engine.extract(dxf())])
    expect(boqs.map((b) => b.blocks.length > 0)).toEqual([true, true])
    expect(engine.stats().workersStarted).toBe(2)
  })
})

describe('files written in the worker', () => {
  it('answers XLSX, CSV and JSON bytes and the warnings; the caller keeps its bytes, even a Buffer', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      const bytes = Buffer.from(knownDrawing())
      const before = bytes.length
      const { files, warnings } = await engine.extractFiles(
        { bytes, fileName: 'known.dxf', options: { units: 'imperial' } },
        ['xlsx', 'csv', 'json'],
      )
      expect(bytes.length).toBe(before)
      expect(
        Buffer.from(files.xlsx ?? [])
          .subarray(0, 2)
          .toString(),
      ).toBe('PK')
      expect(new TextDecoder().decode(files.csv).split('\n')[0]).toMatch(/^Section,/)
      const boq = JSON.parse(new TextDecoder().decode(files.json))
      expect(boq).toMatchObject({ schema: 'boq', version: 2, units: { length: 'ft' } })
      expect(warnings).toEqual(boq.warnings)
      // The same engine still answers a Boq afterwards.
      expect((await engine.extract({ bytes, fileName: 'known.dxf' })).schema).toBe('boq')
    } finally {
      await engine.close()
    }
  })
})

describe('a bill priced in the worker with the tables it is given', () => {
  it('gives the priced bill first in every file; tables that do not check leave it measured, saying why', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      const rule = { match: 'count', block: '*', code: 'EX-10', unit: 'nr', rate: 2 } as const
      const classification = [{ code: 'EX-10', title: 'Example blocks' }]
      const priced = await engine.extractFiles(
        { ...dwg('2018_Dynblocks.dwg'), pricing: { rules: [rule], classification } },
        ['xlsx', 'csv', 'json'],
      )
      expect(priced.priced).toBe(true)
      const boq = JSON.parse(new TextDecoder().decode(priced.files.json)) as Boq
      const placed = boq.bill
        .filter((line) => line.kind === 'count')
        .reduce((sum, line) => sum + line.quantity, 0)
      expect(placed).toBeGreaterThan(0)
      expect(boq.priced?.items).toEqual([
        expect.objectContaining({ description: 'Example blocks', quantity: placed, rate: 2 }),
      ])
      expect(new TextDecoder().decode(priced.files.csv)).toContain('Example blocks')

      const broken = await engine.extractFiles(
        {
          ...dwg('2018_Dynblocks.dwg'),
          pricing: { rules: [{ ...rule, quantity: 'count *' }], classification },
        },
        ['json'],
      )
      expect(broken.priced).toBe(false)
      const measured = JSON.parse(new TextDecoder().decode(broken.files.json)) as Boq
      expect(measured.priced).toBeUndefined()
      expect(measured.bill).toEqual(boq.bill)
      expect(broken.warnings).toContainEqual(
        expect.stringMatching(
          /^The bill is not priced: the project's takeoff rules could not be applied \(row 1: formula/,
        ),
      )
    } finally {
      await engine.close()
    }
  })
})

describe('a pricing past its budget', () => {
  it('ends its worker; the bill is read again and written unpriced, saying why, and the next job is served', async () => {
    const engine = createBoqEngine({
      workers: 1,
      pricingBudgetMs: 1_000,
      workerUrl: new URL('../../testing/boq/stalling-engine-worker.ts', import.meta.url),
    })
    try {
      const rule = (code: string) =>
        ({ match: 'count', block: '*', code, unit: 'nr', rate: 2 }) as const
      const priced = (code: string) =>
        engine.extractFiles({ ...dxf(), pricing: { rules: [rule(code)], classification: [] } }, [
          'json',
        ])
      // One worker: the second job waits behind the one whose pricing never ends by itself.
      const [stuck, next] = await Promise.all([priced(STALL_CODE), priced('A')])
      expect(stuck.priced).toBe(false)
      const measured = JSON.parse(new TextDecoder().decode(stuck.files.json)) as Boq
      expect(measured.priced).toBeUndefined()
      expect(measured.bill.length).toBeGreaterThan(0)
      const why =
        "The bill is not priced: pricing it with the project's takeoff rules took longer than 1 s, so it was stopped; the bill is measured only."
      expect(stuck.warnings).toContain(why)
      expect(measured.warnings).toContain(why)
      expect(next.priced).toBe(true)
      expect(next.warnings).not.toContain(why)
      expect(engine.stats().workersReplaced).toBe(1)
    } finally {
      await engine.close()
    }
  })
})

describe("the drawing's geometry, built in the worker from the same read as the bill", () => {
  it('holds every model-space handle the bill names, drawn in paths or arcs', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      for (const input of [dwg(), dxf()]) {
        const { files } = await engine.extractFiles(input, ['json', 'geometry'])
        const boq = JSON.parse(new TextDecoder().decode(files.json)) as Boq
        const geometry = decodeGeometry(gunzipSync(files.geometry ?? new Uint8Array()))
        const named = boq.bill.flatMap((line) => line.breakdown.flatMap((row) => row.handles))
        expect(named.length, input.fileName).toBeGreaterThan(0)
        const handles = new Set(geometry.handles)
        expect(
          named.filter((handle) => !handles.has(handle)),
          input.fileName,
        ).toEqual([])
        const { paths, arcs } = geometryCounts(geometry)
        expect(paths + arcs, input.fileName).toBeGreaterThan(0)
      }
    } finally {
      await engine.close()
    }
  })

  it('is not made when not asked for', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      const { files } = await engine.extractFiles(dxf(), ['json'])
      expect(files.geometry).toBeUndefined()
    } finally {
      await engine.close()
    }
  })
})

describe('one instance, put back to its fresh state between files', () => {
  it('after a reset the reader allocates exactly as when it was new', async () => {
    const reader = await createResettableReader()
    const read = (name: string) => {
      reader.lib.FS.writeFile('/t.dwg', fixture(name))
      const { data } = reader.lib.dwg_read_file('/t.dwg')
      reader.lib.FS.unlink('/t.dwg')
      return data
    }
    const first = read('example_2018.dwg')
    reader.reset()
    read('2000_TS1.dwg')
    reader.reset()
    // The drawing lands where it landed in the new instance: the allocator's state came back too.
    expect(read('example_2018.dwg')).toBe(first)
  })

  it('reads every fixture, twice over, exactly as a new instance does', async () => {
    const names = fixtureNames('.dwg')
    const fresh = new Map<string, string>()
    for (const name of names) {
      const lib = await createReader()
      fresh.set(name, JSON.stringify(extractBoq({ bytes: fixture(name), fileName: name }, lib)))
    }
    const reader = await createResettableReader()
    for (let round = 0; round < 2; round++) {
      for (const name of names) {
        let answer: string
        try {
          answer = JSON.stringify(extractBoq({ bytes: fixture(name), fileName: name }, reader.lib))
        } finally {
          reader.reset()
        }
        expect(answer, `${name}, round ${round + 1}`).toBe(fresh.get(name))
      }
    }
  }, 120_000)
})
