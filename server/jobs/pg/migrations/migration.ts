/** One numbered change of BOQ's tables, applied once per database, in order of `version`. */
export interface Migration {
  /** 1, 2, 3…: one more than the migration before it. */
  version: number
  /** What it does, in a few words (kept with the version in `boq_schema_migrations`). */
  name: string
  /** Run in order, in the one transaction that records the migration. */
  statements: readonly string[]
}
