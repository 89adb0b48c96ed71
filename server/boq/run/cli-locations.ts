import type { LocationRow } from '#contract/locations.ts'
import { readLocations } from '../locations/table.ts'
import { readTableFile } from './cli-rules.ts'

/**
 * The locations table of `--locations locations.csv|xlsx|json`, read and checked whole before any
 * drawing is read: a bad row stops the command (exit 2, nothing written), naming the file and row.
 */
export function readLocationsFile(
  path: string,
  at: (path: string) => string,
): Promise<LocationRow[]> {
  return readTableFile(path, at, (bytes, format) => readLocations(bytes, format))
}
