import type { RowFindings } from '../locations/row-problems.ts'
import type { BoqFiles } from '../write/files.ts'

/**
 * The zones file (what a preview of a locations table shows) with `byRow` beside what the bill's
 * files say: each row's problems, and which of the bill's warnings they say again. They stay out
 * of the bill, so an extraction's JSON says what it said; the zones file is small, read again here.
 */
export function addRowFindings(written: BoqFiles, byRow: RowFindings): void {
  const zones = written.files.zones
  if (!zones) return
  const file = JSON.parse(new TextDecoder().decode(zones)) as Record<string, unknown>
  written.files.zones = new TextEncoder().encode(JSON.stringify({ ...file, byRow }))
}
