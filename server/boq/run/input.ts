import type { LocationRow } from '#contract/locations.ts'
import type { BillOptions } from '../model/schema.ts'
import type { PricingTables } from '../price/price.ts'
import type { ChangesFrom } from '../write/files.ts'

/**
 * A drawing to read, and how its bill is wanted (units, splits); for files, an earlier bill to
 * compare it with in the workbook, and the takeoff rules and classification to price it with.
 * What the engine, its worker and the jobs all take.
 */
export type BoqInput = {
  bytes: Uint8Array
  fileName: string
  options?: BillOptions
  changesFrom?: ChangesFrom
  pricing?: PricingTables
  /** Rows of a locations table: the bill allocated to the zones they find. */
  locations?: LocationRow[]
}
