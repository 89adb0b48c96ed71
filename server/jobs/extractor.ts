import type { ComparedBill } from '../../contract/compare.ts'
import type { BillOptions } from '../boq/model/schema.ts'
import type { PricingTables } from '../boq/price/price.ts'
import type { ChangesFrom } from '../boq/write/files.ts'

/** The outputs of one extraction, ready to upload and to keep for download. */
export interface BoqOutputs {
  xlsx: Uint8Array
  /** The CSV's UTF-8 bytes, as stored and served. */
  csv: Uint8Array
  /** The BOQ JSON: what the change bill between two jobs compares, without reading a drawing. */
  json: Uint8Array
  /**
   * The drawing's geometry for the drawing view (contract/drawing-geometry.ts), gzip-compressed;
   * absent: none made.
   */
  geometry?: Uint8Array
  /** The earlier bill the workbook's Changes sheet compares with; null when none. */
  comparedWith: ComparedBill | null
  /** The bill's warnings (the engine's `boq.warnings`), shown with the job. */
  warnings: string[]
  /** The files carry the bill priced with the input's tables (false: none given, or unusable). */
  priced: boolean
}

/** One drawing to extract; `options` only when the person chose the bill's units. */
export interface ExtractorInput {
  bytes: Uint8Array
  fileName: string
  options?: BillOptions
  /** An earlier bill of the same drawing: the workbook gets a Changes sheet against it. */
  changesFrom?: ChangesFrom
  /** The project's saved takeoff rules and classification: the files give the priced bill first. */
  pricing?: PricingTables
}

/**
 * What the runner needs of the BOQ engine: bytes (and the bill's options) in, XLSX, CSV and the
 * bill's warnings out. `engine-extractor.ts` adapts the real engine (server/boq); unit tests pass a small fake.
 */
export interface Extractor {
  extract(input: ExtractorInput, onProgress?: (fraction: number) => void): Promise<BoqOutputs>
  /**
   * The drawing's geometry alone, read as an extraction reads it and gzip-compressed as it is
   * kept: for a succeeded job kept without it. Undefined when the drawing was read but its
   * geometry could not be made; a drawing that cannot be read fails as `extract` does.
   */
  geometry(input: DrawingInput): Promise<Uint8Array | undefined>
  close(): Promise<void>
}

/** A drawing to read for its geometry alone. */
export type DrawingInput = Pick<ExtractorInput, 'bytes' | 'fileName'>

/**
 * An Extractor made by `create` on the first extraction (and only then closed). Once closed it
 * makes none: an extraction asked after it was closed fails, as one running then does.
 */
export function lazyExtractor(create: () => Promise<Extractor>): Extractor {
  let made: Promise<Extractor> | undefined
  let closed = false
  return {
    async extract(input, onProgress) {
      if (closed) throw new Error('The engine was closed.')
      made ??= create()
      return (await made).extract(input, onProgress)
    },
    async geometry(input) {
      if (closed) throw new Error('The engine was closed.')
      made ??= create()
      return (await made).geometry(input)
    },
    async close() {
      closed = true
      await (await made?.catch(() => undefined))?.close()
    },
  }
}
