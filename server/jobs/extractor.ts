import type { BoqInput } from '../boq/run/input.ts'
import type { BoqFiles } from '../boq/write/files.ts'

/**
 * What the runner needs of the BOQ engine, in the engine's own input and output types: a drawing
 * (and the bill's options) in, the bill's files and warnings out. `engine-extractor.ts` adapts the real engine (server/boq); unit tests pass a small fake.
 */
export interface Extractor {
  /** The bill's files (XLSX, CSV, JSON and the drawing's geometry) and its warnings. */
  extract(input: BoqInput, onProgress?: (fraction: number) => void): Promise<BoqFiles>
  /**
   * The drawing's geometry alone, read as an extraction reads it and gzip-compressed as it is
   * kept: for a succeeded job kept without it. Undefined when the drawing was read but its
   * geometry could not be made; a drawing that cannot be read fails as `extract` does.
   */
  geometry(input: Pick<BoqInput, 'bytes' | 'fileName'>): Promise<Uint8Array | undefined>
  /**
   * The zones a locations table finds in the drawing, read as an extraction reads it with
   * `input.locations`: JSON `{units, zones, warnings}` (server/boq/write/files.ts), the bill
   * itself left in the worker. A drawing that cannot be read fails as `extract` does.
   */
  zones(input: Pick<BoqInput, 'bytes' | 'fileName' | 'options' | 'locations'>): Promise<Uint8Array>
  close(): Promise<void>
}

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
    async zones(input) {
      if (closed) throw new Error('The engine was closed.')
      made ??= create()
      return (await made).zones(input)
    },
    async close() {
      closed = true
      await (await made?.catch(() => undefined))?.close()
    },
  }
}
