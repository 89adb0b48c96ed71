import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import { knownDrawing } from '../../testing/boq/known-drawing.ts'
import { noise } from '../../testing/boq/noise.ts'
import { BoqError } from '../model/boq-error.ts'
import { type BoqEngine, createBoqEngine } from './engine.ts'

const good = () => ({ bytes: new TextEncoder().encode(knownDrawing()), fileName: 'known.dxf' })

async function failure(promise: Promise<unknown>): Promise<BoqError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BoqError)
  return error as BoqError
}

describe('bad input: a clear error, and the next file still works', () => {
  let engine: BoqEngine
  beforeAll(() => {
    engine = createBoqEngine({ maxFileBytes: 2_000_000, timeoutMs: 60_000 })
  })
  afterAll(async () => {
    await engine.close()
  })

  const cases: [string, () => Uint8Array, string, RegExp][] = [
    [
      'an empty file',
      () => new Uint8Array(0),
      'not-dwg',
      /^Not a DWG file \(the file is empty\)\.$/,
    ],
    ['random bytes', () => new Uint8Array(randomBytes(5000)), 'not-dwg', /^Not a DWG file/],
    [
      'a PDF renamed .dwg',
      () => new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'),
      'not-dwg',
      /PDF document/,
    ],
    [
      'a DWG header on random bytes',
      () => new Uint8Array([...new TextEncoder().encode('AC1032'), ...randomBytes(100_000)]),
      'corrupt',
      /^Truncated or corrupt/,
    ],
    [
      'a DWG of an unknown version',
      () => new Uint8Array([...new TextEncoder().encode('AC1099'), ...randomBytes(1000)]),
      'unsupported',
      /^Unsupported DWG version AC1099/,
    ],
    [
      'a file over the size limit',
      () => new Uint8Array(2_000_001),
      'too-large',
      /^Too large \(limit 1\.9 MB; the file has 1\.9 MB\)\.$/,
    ],
  ]

  it.each(cases)('%s', async (_name, bytes, kind, message) => {
    const error = await failure(engine.extract({ bytes: bytes(), fileName: 'bad.dwg' }))
    expect(error.kind).toBe(kind)
    expect(error.message).toMatch(message)
    expect(error.stack ?? '').not.toContain(error.message.repeat(2))
    const boq = await engine.extract(good())
    expect(boq.blocks.length).toBeGreaterThan(0)
  })

  it('a truncated DWG (each release family)', async () => {
    for (const [name, keep] of [
      ['example_2018.dwg', 60_000],
      ['example_2000.dwg', 300_000],
      ['example_r13.dwg', 2_000],
    ] as const) {
      const error = await failure(
        engine.extract({ bytes: fixture(name).slice(0, keep), fileName: name }),
      )
      expect(error.kind).toBe('corrupt')
      expect(error.message).toMatch(/^Truncated or corrupt \(LibreDWG: .+\)\.$/)
    }
    const boq = await engine.extract({
      bytes: fixture('example_2018.dwg'),
      fileName: 'example_2018.dwg',
    })
    expect(boq.blocks.reduce((n, b) => n + b.count, 0)).toBe(10)
  })

  it('a valid header on a random body is corrupt, not an empty drawing', async () => {
    for (const name of [
      'example_r13.dwg',
      'example_r14.dwg',
      'example_2000.dwg',
      'example_2007.dwg',
    ]) {
      const bytes = fixture(name)
      bytes.set(noise(bytes.length - 0x80), 0x80)
      const error = await failure(engine.extract({ bytes, fileName: name }))
      expect(error.kind, name).toBe('corrupt')
      expect(error.message, name).toMatch(/^Truncated or corrupt/)
    }
  }, 60_000)

  it('a corrupt DXF', async () => {
    const text = knownDrawing()
    const error = await failure(
      engine.extract({
        bytes: new TextEncoder().encode(`${text.slice(0, text.length / 2)}\n  0\nENDSEC\n`),
        fileName: 'cut.dxf',
      }),
    ).catch(() => null)
    // A DXF cut in half may still parse (what is there is measured); either way the engine answers.
    if (error) expect(error.kind).toBe('corrupt')
    expect((await engine.extract(good())).blocks.length).toBeGreaterThan(0)
  })
})

describe('limits: a parse that takes too long is stopped; the host survives', () => {
  it('times out, then reads the next file', async () => {
    const engine = createBoqEngine({ timeoutMs: 1 })
    try {
      const error = await failure(
        engine.extract({ bytes: fixture('example_2018.dwg'), fileName: 'slow.dwg' }),
      )
      expect(error.kind).toBe('timeout')
      expect(error.message).toMatch(/^Took longer than 0 s to read; stopped\.$/)
    } finally {
      await engine.close()
    }
    const next = createBoqEngine()
    try {
      expect((await next.extract(good())).blocks.length).toBeGreaterThan(0)
    } finally {
      await next.close()
    }
  })

  it('a closed engine refuses work', async () => {
    const engine = createBoqEngine()
    await engine.close()
    const error = await failure(engine.extract(good()))
    expect(error.kind).toBe('crashed')
  })
})
