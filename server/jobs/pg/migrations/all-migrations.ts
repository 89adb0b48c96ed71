import { jobsTables } from './001-jobs.ts'
import { watchesTables } from './002-watches.ts'
import { billSettingsTable } from './003-bill-settings.ts'
import { projectBillsTables } from './004-project-bills.ts'
import { locationsTable } from './005-locations.ts'
import { projectBillPartsTable } from './006-project-bill-parts.ts'
import type { Migration } from './migration.ts'

/** Every migration, oldest first. A new one goes at the end, numbered one more. */
export const MIGRATIONS: readonly Migration[] = [
  jobsTables,
  watchesTables,
  billSettingsTable,
  projectBillsTables,
  locationsTable,
  projectBillPartsTable,
]
