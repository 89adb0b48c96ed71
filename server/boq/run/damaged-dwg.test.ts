import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture, fixtureNames } from '../../testing/boq/fixtures.ts'
import { flipBytes, zeroSpan } from '../../testing/boq/noise.ts'
import { BoqError } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import { createResettableReader, type ResettableReader } from '../read/libredwg.ts'
import { extractBoq } from './extract.ts'

const DAMAGED = /^The drawing is damaged: .+; its figures may be incomplete\.$/
/** Where changes start: past every release's file header. */
const PAST_HEADER = 0x100

/**
 * Files read as the worker reads them: one LibreDWG instance put back to its fresh state after
 * each file, replaced after a failure inside it, which the worker answers as a corrupt file.
 */
class Reader {
  private reader: ResettableReader | null = null

  async read(bytes: Uint8Array, fileName: string): Promise<Boq | BoqError> {
    this.reader ??= await createResettableReader()
    try {
      return extractBoq({ bytes, fileName }, this.reader.lib)
    } catch (error) {
      if (error instanceof BoqError) return error
      this.reader = null
      return new BoqError('corrupt', `Truncated or corrupt (the reader failed: ${error}).`)
    } finally {
      this.reader?.reset()
    }
  }
}

/** What a bill says: its lines with their quantities and breakdowns, counts, measures, the rest. */
function figures(boq: Boq): string {
  return JSON.stringify([boq.bill, boq.blocks, boq.lengths, boq.areas, boq.notMeasured])
}

type Outcome = 'identical' | 'warned' | 'refused'

/** How the engine answered a changed file, against its answer for the file as it was. */
function outcomeOf(answer: Boq | BoqError, undamaged: Boq): Outcome | string {
  if (answer instanceof BoqError) {
    return answer.kind === 'corrupt' && /^Truncated or corrupt \(.+\)\.$/.test(answer.message)
      ? 'refused'
      : `refused as ${answer.kind}: ${answer.message}`
  }
  // First, or after an empty bill's reason (which always leads).
  const at = answer.warnings.findIndex((warning) => DAMAGED.test(warning))
  if (at === 0 || (at === 1 && answer.bill.length === 0)) return 'warned'
  if (figures(answer) === figures(undamaged)) return 'identical'
  return `a changed bill without the damage warning (warnings: ${answer.warnings.join(' | ')})`
}

/** Sections of an R13–R2000 file by its locator records: number → [address, size]. */
function r13Sections(bytes: Uint8Array): Map<number, [number, number]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Map<number, [number, number]>()
  const count = view.getUint32(0x15, true)
  for (let i = 0; i < count && i < 8; i++) {
    const at = 0x19 + i * 9
    out.set(view.getUint8(at), [view.getUint32(at + 1, true), view.getUint32(at + 5, true)])
  }
  return out
}

function zeroSection(bytes: Uint8Array, number: number): Uint8Array {
  const [address, size] = r13Sections(bytes).get(number) ?? [0, 0]
  const out = bytes.slice()
  out.fill(0, address, address + size)
  return out
}

/** The corruptions every fixture goes through, named. */
function corruptions(name: string, bytes: Uint8Array): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = []
  for (const seed of [1, 2, 3, 4]) {
    out.push([`16 bytes flipped (seed ${seed})`, flipBytes(bytes, 16, seed, PAST_HEADER)])
  }
  out.push(['512 bytes flipped (seed 1)', flipBytes(bytes, 512, 1, PAST_HEADER)])
  out.push(['4 KB zeroed (seed 1)', zeroSpan(bytes, 4096, 1, PAST_HEADER)])
  out.push(['4 KB zeroed (seed 2)', zeroSpan(bytes, 4096, 2, PAST_HEADER)])
  if (/^AC101[245]$/.test(new TextDecoder().decode(bytes.subarray(0, 6)))) {
    out.push(['the classes section zeroed', zeroSection(bytes, 1)])
    out.push(['the object map zeroed', zeroSection(bytes, 2)])
  }
  return name === '2018_Dynblocks.dwg' ? out.slice(0, 3) : out
}

describe('damaged DWG: the bill is the same, or says the drawing is damaged, or is refused', () => {
  const reader = new Reader()
  const undamaged = new Map<string, Boq>()
  const tally: Record<string, number> = { identical: 0, warned: 0, refused: 0 }

  beforeAll(async () => {
    for (const name of fixtureNames('.dwg')) {
      const boq = await reader.read(fixture(name), name)
      if (boq instanceof BoqError) throw boq
      undamaged.set(name, boq)
    }
  }, 60_000)

  afterAll(() => {
    // Every kind of answer is met: the checks are neither blind nor refusing everything.
    expect(tally.identical).toBeGreaterThan(0)
    expect(tally.warned).toBeGreaterThan(0)
    expect(tally.refused).toBeGreaterThan(0)
  })

  it('no undamaged fixture is said to be damaged', () => {
    for (const [name, boq] of undamaged) {
      expect(
        boq.warnings.filter((w) => /damaged/.test(w)),
        name,
      ).toEqual([])
      expect(
        boq.notMeasured.map((n) => n.type),
        name,
      ).not.toContain('unreadable entity')
    }
  })

  it.each(fixtureNames('.dwg'))('%s', async (name) => {
    for (const [label, bytes] of corruptions(name, fixture(name))) {
      const outcome = outcomeOf(await reader.read(bytes, name), undamaged.get(name) as Boq)
      expect(['identical', 'warned', 'refused'], `${name}, ${label}: ${outcome}`).toContain(outcome)
      tally[outcome] += 1
    }
  })
})

describe('damage that used to go unsaid now warns', () => {
  const reader = new Reader()

  it('example_2013.dwg with 16 bytes flipped: 39 of its 68 entities read, and it says so', async () => {
    const name = 'example_2013.dwg'
    const boq = await reader.read(flipBytes(fixture(name), 16, 51, PAST_HEADER), name)
    if (boq instanceof BoqError) throw boq
    expect(Object.values(boq.source.entityCounts).reduce((sum, n) => sum + n, 0)).toBe(39)
    expect(boq.warnings[0]).toMatch(DAMAGED)
    expect(boq.warnings[0]).toMatch(/at least \d+ objects could not be read/)
    expect(boq.warnings[0]).toMatch(/some of its checksums failed/)
  })

  it('example_r14.dwg with 512 bytes flipped: blocks lost, and it says so', async () => {
    const name = 'example_r14.dwg'
    const undamaged = await reader.read(fixture(name), name)
    const boq = await reader.read(flipBytes(fixture(name), 512, 28, PAST_HEADER), name)
    if (boq instanceof BoqError || undamaged instanceof BoqError) throw boq
    const placed = (bill: Boq) => bill.blocks.reduce((sum, block) => sum + block.count, 0)
    expect(placed(boq)).toBeLessThan(placed(undamaged))
    // The file's own object map and CRCs say how much: objects missing, checksums failed.
    expect(boq.warnings[0]).toMatch(DAMAGED)
    expect(boq.warnings[0]).toMatch(/\d+ objects could not be read, \d+ checksums failed/)
  })

  it('an R11 drawing whose entities section breaks off is refused before LibreDWG reads it', async () => {
    const name = 'r11_ACEB10.dwg'
    const answer = await reader.read(zeroSpan(fixture(name), 4096, 2, PAST_HEADER), name)
    expect(answer).toBeInstanceOf(BoqError)
    expect((answer as BoqError).message).toMatch(
      /^Truncated or corrupt \(its block definitions section breaks off after \d+ entities\)\.$/,
    )
  })
})
