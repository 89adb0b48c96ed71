import type { LocationRow } from '#contract/locations.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { formatOf } from './rules-body.ts'

/**
 * A PUT body of …/locations as checked rows: JSON `{"locations": [...]}`, or a CSV or XLSX file.
 * It is read and checked in the bill pool, as the command line checks a `--locations` file;
 * every wrong row (an empty layer, an unknown label source, a broken glob) is a 400 naming it,
 * so a table that cannot find zones is never saved.
 */
export async function locationsFromBody(
  bills: BillPool,
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<LocationRow[]> {
  const format = formatOf(contentType)
  const body = format === 'json' ? listOf(bytes) : bytes
  const answer = await bills.run({ kind: 'table', table: 'locations', format, bytes: body })
  if ('rulesError' in answer) throw new AppError(400, sentence(answer.rulesError))
  if (!('rows' in answer)) throw new Error('The bill pool answered a table with no rows.')
  return answer.rows as LocationRow[]
}

/** The list of a JSON body, which must name it (a bare list could be any table's). */
function listOf(bytes: Uint8Array): Uint8Array {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new AppError(400, 'The body is not JSON.')
  }
  const list = (body as Record<string, unknown> | null)?.locations
  if (!Array.isArray(list)) throw new AppError(400, 'The body must be {"locations": [...]}.')
  return new TextEncoder().encode(JSON.stringify(list))
}

/** `row 2: label 'room' is not …` as a sentence: `Row 2: label 'room' is not ….` */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1)
  return /[.!?]$/.test(text) ? text : `${text}.`
}
