import type { BillSettings } from '#contract/bill-settings.ts'
import type { LocationRow } from '#contract/locations.ts'
import { warnOnce } from '../../../jobs/pg/job-rows.ts'
import type { Query, QueueDb } from '../../../lib/pg/transaction.ts'
import { log as serverLog } from '../../../log.ts'
import { rulesStoreOf } from '../documents.ts'
import { checkedSavedLocations, checkedSavedRows, checkedSavedSettings } from '../saved-rows.ts'
import type { RowsOf, RulesKind, RulesStore } from '../types.ts'
import { locationsQueries, settingsQueries, tableQueries } from './rules-queries.ts'
import { versionedRows } from './versioned-rows.ts'

/**
 * A project's saved tables, bill settings and locations on PostgreSQL: the tables in `boq_rules` (migration
 * 001), the bill settings in `boq_bill_settings` (003), the locations in `boq_locations` (005), made by the job store's migrations, on
 * whose pool this store runs; one row per version (`versioned-rows.ts`), a row whose document
 * does not check skipped with a warning naming it.
 */
export function openPostgresRulesStore(options: {
  /** The PostgreSQL job store's pool (pg-boss's), its migrations applied. */
  db: QueueDb
  log?: (message: string) => void
}): RulesStore {
  const warn = warnOnce(options.log ?? ((message) => serverLog.warn(message)))
  const query: Query = async (text, values) => (await options.db.executeSql(text, values)).rows
  const table = <K extends RulesKind>(kind: K) =>
    versionedRows<RowsOf[K]>({
      query,
      warn,
      sql: tableQueries(kind),
      check: (rows) => checkedSavedRows(kind, rows),
      sizeOf: (rows) => rows.length,
    })
  const tables = { rules: table('rules'), classification: table('classification') }
  const settings = versionedRows<BillSettings>({
    query,
    warn,
    sql: settingsQueries,
    check: checkedSavedSettings,
  })

  const locations = versionedRows<LocationRow[]>({
    query,
    warn,
    sql: locationsQueries,
    check: checkedSavedLocations,
    sizeOf: (rows) => rows.length,
  })

  return rulesStoreOf({ tables, settings, locations })
}
