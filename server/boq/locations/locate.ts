import type { LocationRow } from '#contract/locations.ts'
import type { Pieces } from '../measure/bill.ts'
import type { CountLine } from '../measure/counts.ts'
import type { Drawing } from '../model/drawing.ts'
import type { Boq } from '../model/schema.ts'
import { drawingSize } from '../view/extents.ts'
import { toleranceFor } from '../view/tessellate.ts'
import { allocateBill } from './allocate.ts'
import { Frame } from './clip.ts'
import { Regions } from './regions.ts'
import type { RowFindings } from './row-problems.ts'
import { checkedLocations } from './table.ts'
import { findZones } from './zones.ts'

/**
 * The measured bill given its locations, in place: `zones[]`, each line's and each breakdown
 * row's `byZone`, each entity's parts by zone beside its handle, each reference's zone, and the
 * warnings of what the zones could not take. Needs the drawing read with its picture (world
 * coordinates, what the drawing view draws): the shapes are the bill's pieces by handle.
 * Answers the zones' problems by the row of the table each concerns (kept beside the bill, not in
 * it: the bill says them as its warnings).
 */
export function locateBoq(
  boq: Boq,
  drawing: Drawing,
  rows: LocationRow[],
  { counts, pieces }: { counts: CountLine[]; pieces: Pieces },
): RowFindings {
  const locations = checkedLocations(rows)
  const inserts = new Map<string, { x: number; y: number }>()
  for (const { handle, shape } of drawing.picture.modelSpace)
    if (shape?.kind === 'insert' && handle) inserts.set(handle, shape.position)
  const insertAt = (handle: string) => inserts.get(handle)
  // How finely curves are flattened: a 40,000th of the drawing's size, as the drawing view does.
  const size = drawingSize(drawing.picture)
  const tolerance = toleranceFor(size)
  const { zones, warnings, problems, frame } = findZones(
    drawing,
    locations,
    boq.units,
    (box) => new Frame(box, size),
    tolerance,
    insertAt,
  )
  const regions = new Regions(zones)
  const unplaced = { count: 0 }
  allocateBill(boq, counts, { regions, frame, tolerance, pieces, insertAt }, unplaced)
  boq.zones = zones.map((z) => z.zone)
  if (zones.length === 0) {
    warnings.push(
      `No zones found: no closed outline on a layer the locations name (${rows.map((r) => r.layer).join(', ')}); every quantity is unallocated.`,
    )
  }
  // Each row says for itself what these say for the whole drawing (the pieces unplaced aside).
  const detailed = [...warnings]
  if (unplaced.count > 0) {
    warnings.push(
      `${unplaced.count.toLocaleString('en')} measured ${unplaced.count === 1 ? 'piece has' : 'pieces have'} no shape to place in a zone (no handle, or kept only in a sum): unallocated.`,
    )
  }
  boq.warnings.push(...warnings)
  return { problems, detailed }
}
