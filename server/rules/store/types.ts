import type { BillSettings } from '#contract/bill-settings.ts'
import type { LocationRow } from '#contract/locations.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import type { SavedVersion } from '#contract/takeoff-rules-api.ts'

/** A project's two versioned tables: its takeoff rules and its classification system. */
export type RulesKind = 'rules' | 'classification'

export interface RowsOf {
  rules: TakeoffRule[]
  classification: ClassificationEntry[]
}

/** One saved version of a project's table, with who saved it and when. */
export interface SavedRules<K extends RulesKind = RulesKind> {
  version: number
  savedBy: string
  savedAt: string
  rows: RowsOf[K]
}

/**
 * What a save did: saved as the next version, or refused because the version the caller held is
 * not the current one (`current`: who saved that one and when; undefined when none is saved).
 */
export type SaveOutcome<K extends RulesKind = RulesKind> =
  | { saved: SavedRules<K> }
  | { conflict: Omit<SavedRules<K>, 'rows'> | undefined }

/** Who saved a version of a project's document, and when. */
export interface SavedMeta {
  version: number
  savedBy: string
  savedAt: string
}

/** One saved version of a project's document (a table's rows, its bill settings). */
export type Saved<T> = SavedMeta & { content: T }

/** What a save of a document did (see SaveOutcome). */
export type SavedOutcome<T> = { saved: Saved<T> } | { conflict: SavedMeta | undefined }

/** One saved version of a project's bill settings. */
export type SavedBillSettings = SavedMeta & { settings: BillSettings }

export type BillSettingsOutcome = { saved: SavedBillSettings } | { conflict: SavedMeta | undefined }

/** One saved version of a project's locations table (which outlines are zones, named how). */
export type SavedLocations = SavedMeta & { rows: LocationRow[] }

export type LocationsOutcome = { saved: SavedLocations } | { conflict: SavedMeta | undefined }

/**
 * A project's saved tables, bill settings and locations, every version kept. The embedded implementation keeps them in
 * BOQ_DATA_DIR (`embedded-store.ts`), the PostgreSQL one on the job store's pool (`pg/`); both
 * check what they read back with the same schema (`saved-rows.ts`) and skip, naming it, a
 * version that does not check.
 */
export interface RulesStore {
  /** A project's newest saved table of that kind; undefined when none was ever saved. */
  rules<K extends RulesKind>(projectId: string, kind: K): Promise<SavedRules<K> | undefined>
  /** That saved version of a project's table; undefined when it was never saved or cannot be read. */
  savedRules<K extends RulesKind>(
    projectId: string,
    kind: K,
    version: number,
  ): Promise<SavedRules<K> | undefined>
  /** Every saved version of a project's table, newest first. */
  rulesHistory(projectId: string, kind: RulesKind): Promise<SavedVersion[]>
  /**
   * Saves a project's table as version `expectedVersion + 1`, only while `expectedVersion` is the
   * current one (0: none saved): of two saves of the same version, exactly one wins, in any
   * number of processes. Rows are saved as given (checked by the caller).
   */
  saveRules<K extends RulesKind>(
    projectId: string,
    kind: K,
    expectedVersion: number,
    rows: RowsOf[K],
    savedBy: string,
  ): Promise<SaveOutcome<K>>
  /** A project's newest saved bill settings; undefined when none were ever saved. */
  billSettings(projectId: string): Promise<SavedBillSettings | undefined>
  /** That saved version of a project's bill settings; undefined when never saved or unreadable. */
  savedBillSettings(projectId: string, version: number): Promise<SavedBillSettings | undefined>
  /** Every saved version of a project's bill settings, newest first. */
  billSettingsHistory(projectId: string): Promise<SavedMeta[]>
  /** Saves a project's bill settings as `saveRules` saves a table (checked by the caller). */
  saveBillSettings(
    projectId: string,
    expectedVersion: number,
    settings: BillSettings,
    savedBy: string,
  ): Promise<BillSettingsOutcome>
  /** A project's newest saved locations table; undefined when none was ever saved. */
  locations(projectId: string): Promise<SavedLocations | undefined>
  /** That saved version of a project's locations; undefined when never saved or unreadable. */
  savedLocations(projectId: string, version: number): Promise<SavedLocations | undefined>
  /** Every saved version of a project's locations, newest first. */
  locationsHistory(projectId: string): Promise<SavedVersion[]>
  /** Saves a project's locations as `saveRules` saves a table (checked by the caller). */
  saveLocations(
    projectId: string,
    expectedVersion: number,
    rows: LocationRow[],
    savedBy: string,
  ): Promise<LocationsOutcome>
  /** Nothing to wait for: a save is on disk or in the database once answered (the pool a
   * PostgreSQL store shares is its opener's to close). */
  close(): Promise<void>
}
