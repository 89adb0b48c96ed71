import { createBoqEngine } from '../boq/run/engine.ts'
import type { Extractor } from './extractor.ts'

/**
 * The real BOQ engine (server/boq) behind the runner's Extractor seam. The workbook, the CSV and
 * the drawing's geometry are written in the engine's worker: a bill of any size never holds up the server's requests.
 */
export function createEngineExtractor(options: {
  workers: number
  maxFileBytes: number
}): Extractor {
  const engine = createBoqEngine({ workers: options.workers, maxFileBytes: options.maxFileBytes })
  return {
    async extract(input, onProgress) {
      const formats = ['xlsx', 'csv', 'json', 'geometry'] as const
      const { files, warnings, comparedWith, priced } = await engine.extractFiles(
        input,
        [...formats],
        onProgress,
      )
      if (!files.xlsx || !files.csv || !files.json) throw new Error('The engine wrote no files.')
      const { xlsx, csv, json, geometry } = files
      return {
        xlsx,
        csv,
        json,
        ...(geometry ? { geometry } : {}),
        warnings,
        comparedWith,
        priced,
      }
    },
    async geometry(input) {
      // The extraction's own read, with the geometry the only file written.
      const { files } = await engine.extractFiles(input, ['geometry'])
      return files.geometry
    },
    close: () => engine.close(),
  }
}
