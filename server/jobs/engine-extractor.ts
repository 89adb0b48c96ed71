import { createBoqEngine } from '../boq/engine.ts'
import type { Extractor } from './extractor.ts'

/**
 * The real BOQ engine (server/boq) behind the runner's Extractor seam. The workbook and the CSV
 * are written in the engine's worker: a bill of any size never holds up the server's requests.
 */
export function createEngineExtractor(options: {
  workers: number
  maxFileBytes: number
}): Extractor {
  const engine = createBoqEngine({ workers: options.workers, maxFileBytes: options.maxFileBytes })
  return {
    async extract(input, onProgress) {
      const { files, warnings } = await engine.extractFiles(input, ['xlsx', 'csv'], onProgress)
      if (!files.xlsx || !files.csv) throw new Error('The engine wrote no XLSX or CSV.')
      return { xlsx: files.xlsx, csv: files.csv, warnings }
    },
    close: () => engine.close(),
  }
}
