import { describe, expect, it } from 'vitest'
import { KNOWN, knownDrawing } from '../../testing/boq/known-drawing.ts'
import type { Boq } from '../model/schema.ts'
import { extractBoq } from '../run/extract.ts'

const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(expected)))

function boqOf(text: string): Boq {
  return extractBoq({ bytes: new TextEncoder().encode(text), fileName: 'known.dxf' }, null)
}

describe('a drawing of known content (DXF written from code)', () => {
  const boq = boqOf(knownDrawing())

  it('counts block references by effective name and layer, nested ones where the parent is', () => {
    expect(boq.blocks).toEqual(expect.arrayContaining(KNOWN.blocks))
    expect(boq.blocks).toHaveLength(KNOWN.blocks.length)
    expect(boq.blocks.some((b) => b.block.startsWith('*'))).toBe(false)
  })

  it('gives each reference its attribute values as columns', () => {
    expect(boq.attributeTags).toEqual(['TYPE', 'FIRE'])
    const types: Record<string, number> = {}
    for (const r of boq.references.filter((r) => r.block === 'DOOR' && r.attributes.TYPE)) {
      types[r.attributes.TYPE] = (types[r.attributes.TYPE] ?? 0) + r.count
    }
    expect(types).toEqual(KNOWN.doorTypes)
    // Nested references are summarised on the model-space reference that holds them.
    expect(boq.references.filter((r) => r.block === 'CHAIR')).toEqual([])
    expect(boq.references.filter((r) => r.block === 'ROOM').map((r) => r.nested)).toEqual([
      [{ block: 'CHAIR', count: 2 }],
      [{ block: 'CHAIR', count: 2 }],
      [{ block: 'CHAIR', count: 2 }],
    ])
  })

  it('measures lengths per layer and kind (bulges, arcs, circles, ellipses, splines, heavy polylines)', () => {
    for (const [layer, kinds] of Object.entries(KNOWN.lengths)) {
      for (const [kind, length] of Object.entries(kinds)) {
        const row = boq.lengths.find((l) => l.layer === layer && l.kind === kind)
        expect(row, `${layer} ${kind}`).toBeDefined()
        close(row?.length ?? Number.NaN, length)
      }
    }
    // Block content and paper space are not top-level linework.
    expect(boq.lengths.filter((l) => l.layer === 'Walls').map((l) => l.count)).toEqual([11])
  })

  it('measures areas: holes subtracted, a hatch and the polyline it fills not summed twice', () => {
    for (const [layer, expected] of Object.entries(KNOWN.areas)) {
      const row = boq.areas.find((a) => a.layer === layer)
      expect(row, layer).toBeDefined()
      for (const [key, value] of Object.entries(expected))
        close(Number(row?.[key as keyof typeof row]), value)
    }
  })

  it('names the units and finds the title block in paper space', () => {
    expect(boq.source.units.name).toBe(KNOWN.units)
    expect(boq.source.units.area).toBe('m²')
    expect(boq.source.titleBlock).toEqual(KNOWN.titleBlock)
    expect(boq.version).toBe(2)
    expect(boq.source.format).toBe('dxf')
  })
})
