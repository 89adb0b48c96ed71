import type { BillSettings } from '#contract/bill-settings.ts'
import type { LocationRow } from '#contract/locations.ts'
import type { RowsOf, RulesKind, RulesStore, Saved, SavedMeta, SavedOutcome } from './types.ts'

/** One document's saved versions, as either store keeps them (files or rows). */
export interface Versions<T> {
  latest(projectId: string): Promise<Saved<T> | undefined>
  version(projectId: string, version: number): Promise<Saved<T> | undefined>
  history(projectId: string): Promise<(SavedMeta & { size?: number })[]>
  save(
    projectId: string,
    expectedVersion: number,
    content: T,
    savedBy: string,
  ): Promise<SavedOutcome<T>>
}

/** The RulesStore over a project's documents' versions, kept one way or the other. */
export function rulesStoreOf(documents: {
  tables: { [K in RulesKind]: Versions<RowsOf[K]> }
  settings: Versions<BillSettings>
  locations: Versions<LocationRow[]>
}): RulesStore {
  const { settings, locations } = documents
  const of = <K extends RulesKind>(kind: K) => documents.tables[kind] as Versions<RowsOf[K]>
  return {
    async rules(projectId, kind) {
      return rowsOf(await of(kind).latest(projectId))
    },
    async savedRules(projectId, kind, version) {
      return rowsOf(await of(kind).version(projectId, version))
    },
    async rulesHistory(projectId, kind) {
      return (await of(kind).history(projectId)).map(({ size, ...meta }) => ({
        ...meta,
        rows: size ?? 0,
      }))
    },
    async saveRules(projectId, kind, expectedVersion, rows, savedBy) {
      return outcomeOf(await of(kind).save(projectId, expectedVersion, rows, savedBy), rowsOf)
    },
    async billSettings(projectId) {
      return settingsOf(await settings.latest(projectId))
    },
    async savedBillSettings(projectId, version) {
      return settingsOf(await settings.version(projectId, version))
    },
    async billSettingsHistory(projectId) {
      return (await settings.history(projectId)).map(({ size: _size, ...meta }) => meta)
    },
    async saveBillSettings(projectId, expectedVersion, given, savedBy) {
      return outcomeOf(await settings.save(projectId, expectedVersion, given, savedBy), settingsOf)
    },
    async locations(projectId) {
      return rowsOf(await locations.latest(projectId))
    },
    async savedLocations(projectId, version) {
      return rowsOf(await locations.version(projectId, version))
    },
    async locationsHistory(projectId) {
      return (await locations.history(projectId)).map(({ size, ...meta }) => ({
        ...meta,
        rows: size ?? 0,
      }))
    },
    async saveLocations(projectId, expectedVersion, rows, savedBy) {
      return outcomeOf(await locations.save(projectId, expectedVersion, rows, savedBy), rowsOf)
    },
    async close() {},
  }
}

function rowsOf<R>(saved: Saved<R> | undefined): (SavedMeta & { rows: R }) | undefined {
  if (!saved) return undefined
  const { content, ...meta } = saved
  return { ...meta, rows: content }
}

function settingsOf(saved: Saved<BillSettings> | undefined) {
  if (!saved) return undefined
  const { content, ...meta } = saved
  return { ...meta, settings: content }
}

function outcomeOf<T, A>(
  outcome: SavedOutcome<T>,
  answer: (saved: Saved<T>) => A | undefined,
): { saved: A } | { conflict: SavedMeta | undefined } {
  return 'saved' in outcome ? { saved: answer(outcome.saved) as A } : outcome
}
