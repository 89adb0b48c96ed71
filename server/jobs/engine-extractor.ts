import { createBoqEngine } from '../boq/run/engine.ts'
import type { WorkerPool } from '../boq/run/pool/pool.ts'
import type { OutputFormat } from '../boq/write/files.ts'
import type { Extractor } from './extractor.ts'
import { LANES } from './work-pool.ts'

/** What an extraction keeps: the bill's files, the drawing's geometry and the bill's part. */
const EVERY_FILE: OutputFormat[] = ['xlsx', 'csv', 'json', 'geometry', 'part']

/**
 * The real BOQ engine (server/boq) behind the runner's Extractor seam, reading in the drawings'
 * lane of the server's pool. The workbook, the CSV and the drawing's geometry are written in the
 * pool's thread: a bill of any size never holds up the server's requests.
 */
export function createEngineExtractor(options: {
  workers: number
  maxFileBytes: number
  pool: WorkerPool
}): Extractor {
  const engine = createBoqEngine({
    workers: options.workers,
    maxFileBytes: options.maxFileBytes,
    pool: { pool: options.pool, lane: LANES.drawings },
  })
  return {
    extract: (input, onProgress) => engine.extractFiles(input, EVERY_FILE, onProgress),
    async geometry(input) {
      // The extraction's own read, with the geometry the only file written.
      const { files } = await engine.extractFiles(input, ['geometry'])
      return files.geometry
    },
    async zones(input) {
      const { files } = await engine.extractFiles(input, ['zones'])
      if (!files.zones) throw new Error('The engine wrote no zones.')
      return files.zones
    },
    close: () => engine.close(),
  }
}
