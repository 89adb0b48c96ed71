import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { BillSettings } from '#contract/bill-settings.ts'
import type { LocationRow } from '#contract/locations.ts'
import { log as serverLog } from '../../log.ts'
import { rulesStoreOf } from './documents.ts'
import { checkedSavedLocations, checkedSavedRows, checkedSavedSettings } from './saved-rows.ts'
import type { RowsOf, RulesKind, RulesStore } from './types.ts'
import { versionedFiles } from './versioned-files.ts'

/**
 * A project's saved tables, bill settings and locations on files, one folder per project and document:
 * `<dataDir>/rules/<project hash>/<rules|classification|bill-settings|locations>/<version>.json`, each
 * version written once and never changed (`versioned-files.ts`).
 */
export function openEmbeddedRulesStore(options: {
  /** BOQ_DATA_DIR: the documents are kept under `<dataDir>/rules`. */
  dataDir: string
  log?: (message: string) => void
}): RulesStore {
  const log = options.log ?? ((message: string) => serverLog.warn(message))
  const root = join(options.dataDir, 'rules')
  // A hash: project ids are the cloud's, of any length and characters.
  const dirOf = (kind: RulesKind | 'bill-settings' | 'locations') => (projectId: string) =>
    join(root, createHash('sha256').update(projectId).digest('hex').slice(0, 32), kind)
  const table = <K extends RulesKind>(kind: K) =>
    versionedFiles<RowsOf[K]>({
      dirOf: dirOf(kind),
      field: 'rows',
      check: (rows) => checkedSavedRows(kind, rows),
      sizeOf: (rows) => rows.length,
      log,
    })
  const tables = { rules: table('rules'), classification: table('classification') }
  const settings = versionedFiles<BillSettings>({
    dirOf: dirOf('bill-settings'),
    field: 'settings',
    check: checkedSavedSettings,
    log,
  })

  const locations = versionedFiles<LocationRow[]>({
    dirOf: dirOf('locations'),
    field: 'rows',
    check: checkedSavedLocations,
    sizeOf: (rows) => rows.length,
    log,
  })

  return rulesStoreOf({ tables, settings, locations })
}
