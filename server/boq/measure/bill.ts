import type { DrawingEntity } from '../model/drawing.ts'
import type { BillBreakdownRow, BillLine, BillUnits, BoqLength } from '../model/schema.ts'
import type { CountLine } from './counts.ts'
import { LINEWORK_LABELS, lineworkDescription } from './linework-words.ts'
import type { EachArea, Measured, MeasuredArea, OutlineKind } from './measures.ts'

const OUTLINE_KINDS: OutlineKind[] = ['polyline', 'circle', 'ellipse']
const OUTLINE_LABELS: Record<OutlineKind, string> = {
  polyline: 'closed polylines (not filled by a hatch)',
  circle: 'circles (not filled by a hatch)',
  ellipse: 'whole ellipses (not filled by a hatch)',
}

function scaled(values: number[], factor: number): number[] {
  return factor === 1 ? values : values.map((value) => value * factor)
}

/** An area row's entities one by one, in the bill's units. */
function eachArea({ handles, areas, perimeters }: EachArea, units: BillUnits) {
  return {
    handles,
    quantities: scaled(areas, units.areaFactor),
    perimeters: scaled(perimeters, units.lengthFactor),
  }
}

/** Every line's quantity is the sum of its breakdown rows, so the two always agree. */
function total(rows: BillBreakdownRow[]): number {
  return rows.reduce((sum, row) => sum + row.quantity, 0)
}

function describeCount(line: CountLine): string {
  const values = Object.entries(line.values)
  if (values.length === 0) return line.block
  return `${line.block} (${values.map(([tag, value]) => `${tag}: ${value || 'none'}`).join(', ')})`
}

/** The entities a length or area row of the breakdown measures, beside its handles. */
export type Pieces = Map<BillBreakdownRow, DrawingEntity[]>

/**
 * The bill: numbered lines of counts (A), linework per layer and kind (B) and areas per layer
 * (C), in the bill's units, each with the breakdown it sums (a multiline's by style); and the
 * entities of its length and area rows, in `pieces`.
 */
export function billLines(
  counts: CountLine[],
  lengths: Measured<BoqLength>[],
  areas: MeasuredArea[],
  units: BillUnits,
  pieces: Pieces = new Map(),
): BillLine[] {
  const bill: BillLine[] = []
  const withPieces = (row: BillBreakdownRow, entities: DrawingEntity[]) => {
    pieces.set(row, entities)
    return row
  }

  counts.forEach((line, i) => {
    const breakdown: BillBreakdownRow[] = [...line.layers].map(([layer, row]) => ({
      label: `layer ${layer}`,
      layer,
      nested: row.nested,
      count: row.count,
      quantity: row.count,
      handles: [...row.handles],
    }))
    const values = Object.keys(line.values).length > 0 ? { values: line.values } : {}
    bill.push({
      ref: `A${i + 1}`,
      kind: 'count',
      description: describeCount(line),
      quantity: total(breakdown),
      unit: 'nr',
      block: line.block,
      ...values,
      breakdown,
    })
  })

  // Layers in the order first measured, and each layer's kinds likewise.
  const byLayer = new Map<string, Map<BoqLength['kind'], Measured<BoqLength>[]>>()
  for (const entry of lengths) {
    const kinds =
      byLayer.get(entry.row.layer) ?? new Map<BoqLength['kind'], Measured<BoqLength>[]>()
    const list = kinds.get(entry.row.kind) ?? []
    list.push(entry)
    kinds.set(entry.row.kind, list)
    byLayer.set(entry.row.layer, kinds)
  }
  let n = 0
  for (const [layer, kinds] of byLayer) {
    for (const [kind, entries] of kinds) {
      const breakdown: BillBreakdownRow[] = entries.map(({ row, handles, quantities, entities }) =>
        withPieces(
          {
            label: row.style
              ? `${LINEWORK_LABELS[row.kind]} (style ${row.style})`
              : LINEWORK_LABELS[row.kind],
            layer,
            kind: row.kind,
            count: row.count,
            quantity: row.length * units.lengthFactor,
            handles,
            quantities: scaled(quantities, units.lengthFactor),
          },
          entities,
        ),
      )
      bill.push({
        ref: `B${++n}`,
        kind: 'length',
        description: lineworkDescription(kind, layer),
        quantity: total(breakdown),
        unit: units.length,
        layer,
        breakdown,
      })
    }
  }

  n = 0
  for (const { row, hatches, unfilled } of areas) {
    const breakdown: BillBreakdownRow[] = []
    if (row.hatches > 0) {
      const hatchRow: BillBreakdownRow = {
        label: 'hatches',
        layer: row.layer,
        kind: 'hatch',
        count: row.hatches,
        quantity: row.hatchArea * units.areaFactor,
        ...eachArea(hatches, units),
      }
      breakdown.push(withPieces(hatchRow, hatches.entities))
    }
    for (const kind of OUTLINE_KINDS) {
      const outlines = unfilled[kind]
      if (outlines.count === 0) continue
      const outlineRow: BillBreakdownRow = {
        label: OUTLINE_LABELS[kind],
        layer: row.layer,
        kind: kind === 'polyline' ? 'closed polyline' : kind,
        count: outlines.count,
        quantity: outlines.area * units.areaFactor,
        ...eachArea(outlines, units),
      }
      breakdown.push(withPieces(outlineRow, outlines.entities))
    }
    if (breakdown.length === 0) continue
    bill.push({
      ref: `C${++n}`,
      kind: 'area',
      description: `Area on layer ${row.layer}`,
      quantity: total(breakdown),
      unit: units.area,
      layer: row.layer,
      breakdown,
    })
  }
  return bill
}
