import { createBoqEngine } from '../boq/run/engine.ts'
import type { OutputFormat } from '../boq/write/files.ts'
import type { Extractor } from './extractor.ts'

/** What an extraction keeps: the bill's files and the drawing's geometry. */
const EVERY_FILE: OutputFormat[] = ['xlsx', 'csv', 'json', 'geometry']

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
    extract: (input, onProgress) => engine.extractFiles(input, EVERY_FILE, onProgress),
    async geometry(input) {
      // The extraction's own read, with the geometry the only file written.
      const { files } = await engine.extractFiles(input, ['geometry'])
      return files.geometry
    },
    close: () => engine.close(),
  }
}
