import { describe, expect, it } from 'vitest'
import { NO_QUANTITIES } from '#contract/no-quantities.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { compareBills } from '../compare/compare.ts'
import type { Boq } from '../model/schema.ts'
import { skipReason } from '../read/entity-kinds.ts'
import { extractBoq } from '../run/extract.ts'
import { toCsv } from '../write/csv.ts'

function boqOf(writer: DxfWriter): Boq {
  const bytes = new TextEncoder().encode(writer.toString())
  return extractBoq({ bytes, fileName: 'model.dxf' }, null)
}

/** ACIS data as a modeller writes it (groups 1 and 3): the reader only needs to skip it. */
const ACIS = [70, 1, 1, '400 0 1 0', 3, '16 ASM-BODY 1 -1 $-1 #']

/** A 3D model: solids and a few other 3D objects, nothing else in model space. */
function threeDModel(solids: number): DxfWriter {
  const w = new DxfWriter()
  w.insunits = 4
  const { to, owner } = w.target('model')
  for (let i = 0; i < solids; i++)
    w.entity(to, owner, 'Walls', '3DSOLID', 'AcDbModelerGeometry', ACIS)
  w.entity(to, owner, '0', 'REGION', 'AcDbModelerGeometry', ACIS)
  w.entity(to, owner, '0', 'BODY', 'AcDbModelerGeometry', ACIS)
  w.entity(to, owner, '0', 'EXTRUDEDSURFACE', 'AcDbModelerGeometry', ACIS)
  w.entity(to, owner, '0', 'MESH', 'AcDbSubDMesh', [71, 2, 72, 0, 91, 0, 92, 0])
  return w
}

/** A small plan: one wall and one door. */
function plan(): DxfWriter {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('DOOR', (to, owner) => w.line(to, owner, '0', [0, 0], [900, 0]))
  const { to, owner } = w.target('model')
  w.line(to, owner, 'Walls', [0, 0], [5000, 0])
  w.insert(to, owner, 'Doors', 'DOOR', [1000, 0])
  return w
}

describe('a drawing with nothing the bill measures', () => {
  it('a 3D model gives an empty bill, its solids listed as not measured, and says why first', () => {
    const boq = boqOf(threeDModel(58))
    expect(boq.bill).toEqual([])
    expect(boq.lengths).toEqual([])
    expect(boq.areas).toEqual([])
    expect(boq.notMeasured).toEqual(
      ['3DSOLID', 'BODY', 'EXTRUDEDSURFACE', 'MESH', 'REGION'].map((type) => ({
        type,
        count: type === '3DSOLID' ? 58 : 1,
        reason: skipReason(type),
      })),
    )
    expect(boq.warnings[0]).toBe(
      `${NO_QUANTITIES}: model space holds only what the bill does not measure: 3DSOLID × 58, BODY × 1, EXTRUDEDSURFACE × 1, MESH × 1, REGION × 1 (3D or surface object: not measured).`,
    )
    // Units do not matter to a bill with no figures.
    expect(boq.warnings).toHaveLength(1)
  })

  it('an empty model space says so once, with what is on the layouts', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('paper')
    w.line(to, owner, '0', [0, 0], [1, 0])
    w.line(to, owner, '0', [0, 0], [0, 1])
    const boq = boqOf(w)
    expect(boq.bill).toEqual([])
    expect(boq.warnings).toEqual([
      `${NO_QUANTITIES}: model space is empty; the drawing's 2 entities are on layouts (paper space), which are not counted.`,
    ])
    expect(boq.notMeasured).toEqual([expect.objectContaining({ type: 'paper space', count: 2 })])
  })

  it('names the other kinds by number only past five', () => {
    const w = threeDModel(3)
    const { to, owner } = w.target('model')
    w.entity(to, owner, '0', 'ACME_PIPE', 'AcmePipe', [10, 0, 20, 0])
    expect(boqOf(w).warnings[0]).toMatch(/; and 1 other kind \(see Not measured\)\.$/)
  })

  it('writes an empty CSV bill without a line of 0, the reason among the warnings', () => {
    const csv = toCsv(boqOf(threeDModel(2)))
    const lines = csv.split('\n')
    expect(lines.some((line) => line.startsWith('Bill,'))).toBe(false)
    expect(lines.find((line) => line.startsWith('Warnings,'))).toContain(NO_QUANTITIES)
  })
})

describe('comparing with an empty bill', () => {
  it('an empty bill against itself has no change; nothing of it is added', () => {
    const empty = boqOf(threeDModel(58))
    expect(compareBills(empty, empty).lines).toEqual([])
    const added = compareBills(empty, boqOf(plan())).lines
    expect(added.map((line) => [line.description, line.state]).sort()).toEqual([
      ['DOOR', 'added'],
      ['Lines on layer Walls', 'added'],
    ])
    const removed = compareBills(boqOf(plan()), empty).lines
    expect(removed.every((line) => line.state === 'removed' && line.before > 0)).toBe(true)
  })

  it('a line of no length is not an item that appears', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.line(to, owner, '0', [10, 10], [10, 10])
    const before = boqOf(threeDModel(1))
    expect(compareBills(before, boqOf(w)).lines).toEqual([])
  })
})
