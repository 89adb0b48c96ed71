import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import { BoqError } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import { type BoqEngine, createBoqEngine } from '../run/engine.ts'
import { detect } from './detect.ts'
import { scanDxf } from './dxf/scan.ts'
import { readDxf } from './dxf-reader.ts'

// R13/R14 keep symbol names in capitals with underscores for spaces ("Tavolo 1" → "TAVOLO_1").
const norm = (name: string) => name.toUpperCase().replace(/\s/g, '_')

/** A bill's figures by layer and kind, names as R14 writes them. */
function figures(boq: Boq): Record<string, number> {
  const out: Record<string, number> = {}
  for (const l of boq.lengths) out[`${norm(l.layer)}|${l.kind}|${l.count}`] = l.length
  for (const a of boq.areas) {
    out[`${norm(a.layer)}|closed|${a.closedPolylines}`] = a.closedPolylineArea
    out[`${norm(a.layer)}|curves|${a.closedCurves ?? 0}`] = a.closedCurveArea ?? 0
    out[`${norm(a.layer)}|net`] = a.net
  }
  return out
}

async function refusal(promise: Promise<unknown>): Promise<BoqError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BoqError)
  return error as BoqError
}

/** The same noise on every run: a 32-bit xorshift. */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = 0x2545f491
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

describe('DXF group codes as DXF defines them, and what a .dxf that is none is called', () => {
  let engine: BoqEngine
  beforeAll(() => {
    engine = createBoqEngine({ workers: 1 })
  })
  afterAll(async () => {
    await engine.close()
  })

  it('sample_r14.dxf, whose XRECORDs hold 102 groups as data, reads; its bill is sample_2000.dwg’s', async () => {
    const bytes = fixture('sample_r14.dxf')
    const drawing = readDxf(bytes)
    expect(drawing.entityCounts).toEqual({ CIRCLE: 1, TEXT: 1, LWPOLYLINE: 1, LINE: 3 })

    // AutoCAD's round-trip data: `102 VTR_…` (seven in one XRECORD) and `102 MATERIAL` (three).
    const text = new TextDecoder().decode(bytes)
    const scan = scanDxf(text)
    expect(scan.dataGroups102).toHaveLength(10)
    expect(scan.dataGroups102.map((at) => text.slice(at, at + 3))).toEqual(Array(10).fill('102'))
    expect(scan.xrecordText.get('EB')).toBe('{FDEAD578-A652-11D2-9A35-0060089B3A3F}')

    const dxf = await engine.extract({ bytes, fileName: 'sample_r14.dxf' })
    const dwg = await engine.extract({ bytes: fixture('sample_2000.dwg'), fileName: 'x.dwg' })
    expect(dxf.source.format).toBe('dxf')
    const [a, b] = [figures(dxf), figures(dwg)]
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort())
    for (const [key, value] of Object.entries(b))
      expect(Math.abs(a[key] - value), key).toBeLessThanOrEqual(1e-9 * Math.max(1, value))
  })

  it('an application group is one only before the first subclass marker', () => {
    // An XRECORD whose data holds `102 {…` … `102 }` and a string: all of it is data.
    const text = [
      '0\nSECTION\n2\nOBJECTS',
      '0\nXRECORD\n5\nA1\n102\n{ACAD_REACTORS\n330\nC\n102\n}\n330\nC\n100\nAcDbXrecord',
      '280\n1\n102\n{MINE\n1\ninside\n102\n}',
      '0\nENDSEC\n0\nEOF\n',
    ].join('\n')
    const scan = scanDxf(text)
    expect(scan.xrecordText.get('A1')).toBe('inside')
    expect(scan.dataGroups102).toHaveLength(2)
  })

  it('a .dxf that is no DXF is not a DXF file; a .dwg keeps its own message', async () => {
    const text = new TextEncoder().encode('Shopping list\nmilk\neggs\n')
    const random = noise(5000)
    for (const [bytes, name, message] of [
      [text, 'notes.dxf', /^Not a DXF file \(its content is not a drawing\)\.$/],
      [random, 'plan.DXF', /^Not a DXF file \(its content is not a drawing\)\.$/],
      [new Uint8Array(0), 'empty.dxf', /^Not a DXF file \(the file is empty\)\.$/],
      [random, 'plan.dwg', /^Not a DWG file \(its content is not a drawing\)\.$/],
      [text, 'notes.dwg', /^Not a DWG file/],
    ] as const) {
      const error = await refusal(engine.extract({ bytes, fileName: name }))
      expect(error.message, name).toMatch(message)
      expect(error.kind).toBe('not-dwg')
      expect(() => detect(bytes, name)).toThrow(message)
    }
    // A DXF is a DXF whatever its name says.
    expect(detect(fixture('sample_r14.dxf'), 'drawing.dwg')).toEqual({ format: 'dxf' })
  })
})
