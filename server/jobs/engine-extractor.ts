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
      const formats = ['xlsx', 'csv', 'json'] as const
      const { files, warnings, comparedWith } = await engine.extractFiles(
        input,
        [...formats],
        onProgress,
      )
      if (!files.xlsx || !files.csv || !files.json) throw new Error('The engine wrote no files.')
      return { xlsx: files.xlsx, csv: files.csv, json: files.json, warnings, comparedWith }
    },
    close: () => engine.close(),
  }
}
