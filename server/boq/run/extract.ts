import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { LocationRow } from '#contract/locations.ts'
import { locateBoq } from '../locations/locate.ts'
import type { RowFindings } from '../locations/row-problems.ts'
import { computeBoq, measureDrawing } from '../measure/quantities.ts'
import { BoqError } from '../model/boq-error.ts'
import type { Drawing } from '../model/drawing.ts'
import type { BillOptions, Boq } from '../model/schema.ts'
import { detect } from '../read/detect.ts'
import type { ReadOptions } from '../read/drawing-builder.ts'
import { readDwg } from '../read/dwg-reader.ts'
import { readDxf } from '../read/dxf-reader.ts'

/**
 * Bytes → BOQ in the calling thread. The engine runs this inside a worker; `reader` is a LibreDWG
 * instance in a fresh state: new, or put back after its last file (needed for DWG only).
 */
export function extractBoq(
  input: BillInput,
  reader: LibreDwgEx | null,
  onProgress: (fraction: number) => void = () => {},
): Boq {
  const options = { picture: wantsPicture(input) }
  return billOf(input, readDrawing(input.bytes, reader, onProgress, options))
}

/** What a bill is made from: the drawing's bytes, and how the bill is wanted. */
export type BillInput = {
  bytes: Uint8Array
  fileName: string
  options?: BillOptions
  /** Rows of the locations table: the bill is then allocated to the zones they find. */
  locations?: LocationRow[]
}

/** Locations place the bill's pieces by their shapes in the picture (world coordinates). */
export function wantsPicture(input: BillInput): boolean {
  return (input.locations?.length ?? 0) > 0
}

/**
 * Bytes → the drawing model, as extractBoq reads it; with `picture`, also what the drawing view
 * draws (the worker asks for it when the job wants the geometry).
 */
export function readDrawing(
  bytes: Uint8Array,
  reader: LibreDwgEx | null,
  onProgress: (fraction: number) => void = () => {},
  options: ReadOptions = {},
): Drawing {
  const detected = detect(bytes)
  let drawing: Drawing
  if (detected.format === 'dwg') {
    if (!reader) throw new BoqError('crashed', 'The DWG reader is not available.')
    drawing = readDwg(reader, bytes, detected.version, options)
    if (detected.version === 'AC1009') {
      drawing.warnings.push(
        'R11/R12 drawings are only partly readable: some entities may be missing.',
      )
    }
  } else {
    drawing = readDxf(bytes, options)
  }
  onProgress(0.9)
  return drawing
}

/** The drawing model → BOQ. */
export function billOf(input: BillInput, drawing: Drawing): Boq {
  return locatedBillOf(input, drawing).boq
}

/** A bill, and with locations what each row's zones could not take (null without locations). */
export type LocatedBill = { boq: Boq; byRow: RowFindings | null }

/** The drawing model → BOQ, with the zones' problems by row when it has locations. */
export function locatedBillOf(input: BillInput, drawing: Drawing): LocatedBill {
  const file = { fileName: input.fileName, fileBytes: input.bytes.length }
  if (!wantsPicture(input)) return { boq: computeBoq(drawing, file, input.options), byRow: null }
  const measured = measureDrawing(drawing, file, input.options)
  const byRow = locateBoq(measured.boq, drawing, input.locations ?? [], measured)
  return { boq: measured.boq, byRow }
}
