/** The outputs of one extraction, ready to upload and to keep for download. */
export interface BoqOutputs {
  xlsx: Uint8Array
  csv: string
}

/**
 * What the runner needs of the BOQ engine: bytes in, XLSX and CSV out. `engine-extractor.ts`
 * adapts the real engine (server/boq); unit tests pass a small fake.
 */
export interface Extractor {
  extract(
    input: { bytes: Uint8Array; fileName: string },
    onProgress?: (fraction: number) => void,
  ): Promise<BoqOutputs>
  close(): Promise<void>
}

/** An Extractor made by `create` on the first extraction (and only then closed). */
export function lazyExtractor(create: () => Promise<Extractor>): Extractor {
  let made: Promise<Extractor> | undefined
  return {
    async extract(input, onProgress) {
      made ??= create()
      return (await made).extract(input, onProgress)
    },
    async close() {
      await (await made?.catch(() => undefined))?.close()
    },
  }
}
