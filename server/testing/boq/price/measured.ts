import { floorPlanBoq, reference } from '#contract/testing/boq.ts'
import { billUnits } from '../../../boq/measure/units.ts'
import type { BillLine, Boq, BoqReference } from '../../../boq/model/schema.ts'

/**
 * Small measured results for the rules' tests, consistent with themselves: each count line is
 * the sum of the references listed (unless a test leaves some out on purpose).
 */

type Placed = {
  handle: string
  block: string
  layer: string
  count?: number
  attributes?: Record<string, string>
  visibility?: string
  nested?: { block: string; count: number }[]
}

export function placed(p: Placed): BoqReference {
  return reference(
    { handle: p.handle, block: p.block, layer: p.layer, x: 0, y: 0 },
    {
      count: p.count ?? 1,
      attributes: p.attributes ?? {},
      properties: p.visibility === undefined ? {} : { visibility: p.visibility },
      nested: p.nested ?? [],
    },
  )
}

/** A count line per block and layer from the references (nested ones on their holder's layer). */
export function countLines(references: BoqReference[]): BillLine[] {
  const lines = new Map<string, Map<string, { count: number; handles: Set<string> }>>()
  const add = (block: string, layer: string, count: number, handle: string) => {
    const layers = lines.get(block) ?? new Map()
    const row = layers.get(layer) ?? { count: 0, handles: new Set<string>() }
    row.count += count
    row.handles.add(handle)
    layers.set(layer, row)
    lines.set(block, layers)
  }
  for (const ref of references) {
    add(ref.block, ref.layer, ref.count, ref.handle)
    for (const n of ref.nested) add(n.block, ref.layer, n.count, ref.handle)
  }
  return [...lines].map(([block, layers], i) => {
    const breakdown = [...layers].map(([layer, row]) => ({
      label: `layer ${layer}`,
      layer,
      nested: 0,
      count: row.count,
      quantity: row.count,
      handles: [...row.handles],
    }))
    const quantity = breakdown.reduce((sum, row) => sum + row.count, 0)
    return {
      ref: `A${i + 1}`,
      kind: 'count',
      description: block,
      quantity,
      unit: 'nr',
      block,
      breakdown,
    }
  })
}

type Measure = { kind: string; count: number; quantity: number; handles: string[] }

export function lengthLine(ref: string, layer: string, rows: Measure[], unit = 'm'): BillLine {
  return measuredLine('length', ref, layer, rows, unit)
}

export function areaLine(ref: string, layer: string, rows: Measure[], unit = 'm²'): BillLine {
  return measuredLine('area', ref, layer, rows, unit)
}

function measuredLine(
  kind: 'length' | 'area',
  ref: string,
  layer: string,
  rows: Measure[],
  unit: string,
): BillLine {
  return {
    ref,
    kind,
    description: `${kind === 'length' ? 'Linework' : 'Area'} on layer ${layer}`,
    quantity: rows.reduce((sum, row) => sum + row.quantity, 0),
    unit,
    layer,
    breakdown: rows.map((row) => ({ label: `${row.kind}s`, layer, ...row })),
  }
}

/** A metric result (drawn in mm, billed in m) of these references and linework or areas. */
export function measured(references: BoqReference[], lines: BillLine[] = [], insunits = 4): Boq {
  const tags = new Set(references.flatMap((r) => Object.keys(r.attributes)))
  const properties = new Set(references.flatMap((r) => Object.keys(r.properties)))
  return floorPlanBoq({
    units: billUnits(insunits),
    bill: [...countLines(references), ...lines],
    references,
    attributeTags: [...tags],
    propertyNames: [...properties],
  })
}
