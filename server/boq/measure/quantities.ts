import { billGroups } from '#contract/bill-groups.ts'
import { PAPER_SPACE } from '#contract/no-quantities.ts'
import type { Drawing, XrefRef } from '../model/drawing.ts'
import {
  type BillOptions,
  BOQ_SCHEMA_VERSION,
  type Boq,
  type BoqNotMeasured,
  type BoqXref,
} from '../model/schema.ts'
import { EMPTY_MODEL_SPACE } from '../read/drawing-builder.ts'
import { billLines, type Pieces } from './bill.ts'
import { type CountLine, countBlocks } from './counts.ts'
import { emptyBillWarning } from './empty-bill.ts'
import { type NearFit, nearFitWarning } from './fit-tolerance.ts'
import { measureAreas, measureLengths } from './measures.ts'
import { DAMAGED_REASON, type LeftOut } from './no-quantity.ts'
import { billUnits, releaseOf } from './units.ts'

/** The order localeCompare gives, with one collator made once instead of one lookup per call. */
const compare = new Intl.Collator().compare

export function computeBoq(
  drawing: Drawing,
  file: { fileName: string; fileBytes: number },
  options: BillOptions = {},
): Boq {
  return measureDrawing(drawing, file, options).boq
}

/**
 * The BOQ, and what it was made of, for locations: the counts (which references brought what)
 * and the entities of each length and area row.
 */
export function measureDrawing(
  drawing: Drawing,
  file: { fileName: string; fileBytes: number },
  options: BillOptions = {},
): { boq: Boq; counts: CountLine[]; pieces: Pieces } {
  const units = billUnits(drawing.insunits, options)
  const counts = countBlocks(drawing, options.splitBy ?? [], compare)
  const leftOut: LeftOut = new Map()
  const nearFit: NearFit = new Map()
  const lengths = measureLengths(drawing.entities, compare, leftOut, nearFit)
  const areas = measureAreas(drawing.entities, compare, leftOut)
  const xrefs = groupXrefs(drawing.xrefs)
  const pieces: Pieces = new Map()
  const bill = billLines(counts.lines, lengths, areas, units, pieces)
  const unmeasured = notMeasured(drawing, leftOut)
  const read = [...drawing.warnings, ...counts.warnings]
  // An empty bill says why first, in place of the reader's word on an empty model space.
  const warnings =
    bill.length > 0
      ? read
      : [
          emptyBillWarning(modelSpaceEntities(drawing), unmeasured, xrefs),
          ...read.filter((warning) => warning !== EMPTY_MODEL_SPACE),
        ]
  // Damage is said before anything else but an empty bill's reason.
  const damaged = damagedCount(leftOut)
  if (damaged > 0) {
    warnings.push(
      `The drawing may be damaged: ${damaged === 1 ? '1 entity has' : `${damaged} entities have`} coordinates or figures no drawing holds (not a number, or beyond 10¹² drawing units) and ${damaged === 1 ? 'is' : 'are'} left out of the bill, listed under Not measured as damaged geometry.`,
    )
  }
  // Units matter to a bill with figures in them.
  if (bill.length > 0 && !units.drawing.code && !units.stated) {
    warnings.push(
      'The drawing does not state its units: lengths and areas are in drawing units. State them (mm, cm, m, in or ft) to get a bill in m or ft.',
    )
  }
  const fitted = nearFitWarning(nearFit, compare)
  if (fitted) warnings.push(fitted)
  if (xrefs.length > 0) {
    warnings.push(
      `This drawing references ${xrefs.length === 1 ? 'another drawing' : `${xrefs.length} other drawings`} (${xrefs.map((x) => x.name).join(', ')}): ${xrefs.length === 1 ? 'its' : 'their'} content is not in this bill.`,
    )
  }
  const boq: Boq = {
    schema: 'boq',
    version: BOQ_SCHEMA_VERSION,
    source: {
      fileName: file.fileName,
      fileBytes: file.fileBytes,
      format: drawing.format,
      version: drawing.version,
      release: releaseOf(drawing.version),
      units: units.drawing,
      entityCounts: sortedRecord(drawing.entityCounts),
      titleBlock: drawing.titleBlock,
    },
    units,
    bill,
    groups: billGroups(bill),
    warnings: [...new Set(warnings)],
    notMeasured: unmeasured,
    xrefs,
    blocks: counts.blocks,
    references: counts.references,
    referencesCapped: counts.referencesCapped,
    attributeTags: counts.attributeTags,
    propertyNames: counts.propertyNames,
    lengths: lengths.map((l) => l.row),
    areas: areas.map((a) => a.row),
  }
  return { boq, counts: counts.lines, pieces }
}

/** The entities the measures left out as damaged geometry. */
function damagedCount(leftOut: LeftOut): number {
  let count = 0
  for (const entry of leftOut.values()) if (entry.reason === DAMAGED_REASON) count += entry.count
  return count
}

function modelSpaceEntities(drawing: Drawing): number {
  return Object.values(drawing.entityCounts).reduce((sum, n) => sum + n, 0)
}

function sortedRecord(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)))
}

/** What the reader skipped and what the measures left out (by type), then paper space. */
function notMeasured(drawing: Drawing, leftOut: LeftOut): BoqNotMeasured[] {
  const rows = [...drawing.skipped, ...leftOut]
    .map(([type, { count, reason }]) => ({ type, count, reason }))
    .sort((a, b) => compare(a.type, b.type))
  if (drawing.paperSpaceEntities > 0) {
    rows.push({
      type: PAPER_SPACE,
      count: drawing.paperSpaceEntities,
      reason: 'entities on layouts (paper space): only model space is counted',
    })
  }
  return rows
}

/** One entry per attached drawing, with every place it is attached. */
function groupXrefs(refs: XrefRef[]): BoqXref[] {
  const byName = new Map<string, BoqXref>()
  for (const ref of refs) {
    let xref = byName.get(ref.name)
    if (!xref) {
      xref = { name: ref.name, path: ref.path, overlay: ref.overlay, placed: [] }
      byName.set(ref.name, xref)
    }
    xref.placed.push({ handle: ref.handle, layer: ref.layer, x: ref.x, y: ref.y })
  }
  return [...byName.values()].sort((a, b) => compare(a.name, b.name))
}
