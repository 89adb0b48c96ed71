import { toCsv } from '../boq/csv.ts'
import { createBoqEngine } from '../boq/engine.ts'
import { toXlsx } from '../boq/xlsx.ts'
import type { Extractor } from './extractor.ts'

/** The real BOQ engine (server/boq) behind the runner's Extractor seam. */
export function createEngineExtractor(options: {
  workers: number
  maxFileBytes: number
}): Extractor {
  const engine = createBoqEngine({ workers: options.workers, maxFileBytes: options.maxFileBytes })
  return {
    async extract(input, onProgress) {
      const { bytes, fileName, options } = input
      const boq = await engine.extract(
        options ? { bytes, fileName, options } : { bytes, fileName },
        onProgress,
      )
      return { xlsx: await toXlsx(boq), csv: toCsv(boq), warnings: [...boq.warnings] }
    },
    close: () => engine.close(),
  }
}
