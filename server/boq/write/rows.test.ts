import { describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { billUnits } from '../measure/units.ts'
import { fitted, provenance } from './rows.ts'

function unitsSaid(code: number, options: Parameters<typeof billUnits>[1] = {}): unknown {
  const boq = floorPlanBoq({ units: billUnits(code, options) })
  return Object.fromEntries(provenance(boq, new Date(0))).Units
}

describe('provenance', () => {
  it('says the bill’s units and how they come from the drawing’s', () => {
    expect(unitsSaid(4)).toBe(
      'm, m²: the drawing is in millimetres; lengths × 0.001, areas × 0.000001',
    )
    expect(unitsSaid(1)).toBe(
      'ft, ft²: the drawing is in inches; lengths × 0.0833333333333, areas × 0.00694444444444',
    )
    expect(unitsSaid(6)).toBe('m, m²: the drawing is in metres')
    expect(unitsSaid(4, { units: 'drawing' })).toBe('mm, mm²: the drawing is in millimetres')
    expect(unitsSaid(0)).toBe(
      'units, units²: the drawing does not state its units, so quantities are in drawing units',
    )
    expect(unitsSaid(0, { drawingUnits: 'mm' })).toBe(
      'm, m²: the drawing does not state its units; stated as mm; lengths × 0.001, areas × 0.000001',
    )
  })
})

describe('fitted', () => {
  it('leaves text that fits alone and cuts the rest with a marker, never half a character', () => {
    expect(fitted('DOOR')).toBe('DOOR')
    const cut = fitted('a'.repeat(5) + '😀'.repeat(50), 40)
    expect(cut.length).toBeLessThanOrEqual(40)
    expect(cut).toMatch(/^a{5}(😀)+… \[cut: 105 characters\]$/u)
    expect(fitted('\uD800x')).toBe('\uFFFDx')
  })
})
