import { jobsTables } from './001-jobs.ts'
import type { Migration } from './migration.ts'

/** Every migration, oldest first. A new one goes at the end, numbered one more. */
export const MIGRATIONS: readonly Migration[] = [jobsTables]
