// What the tests of the rules, classification and locations pages share: their tables' cells, the saved
// versions the fake server keeps, and the import's question.
import { screen, waitFor, within } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'
import { expect } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import { fakeApi } from './fake-api'

/** What the fake server keeps of a saved version. */
type Saved = { version: number; savedBy?: string; savedAt?: string }

/** Makes `rules` the project's saved rules, as version `version` (saved by Charles Babbage). */
export function saveRules(
  projectId: string,
  rules: TakeoffRule[],
  {
    version = 1,
    savedBy = 'Charles Babbage',
    savedAt = '2024-05-01T10:00:00.000Z',
  }: Partial<Saved> = {},
): void {
  fakeApi.rules[projectId] = { version, savedBy, savedAt, rules }
}

/** Makes `entries` the project's saved classification, as version `version`. */
export function saveClassification(
  projectId: string,
  entries: ClassificationEntry[],
  {
    version = 1,
    savedBy = 'Charles Babbage',
    savedAt = '2024-05-01T10:00:00.000Z',
  }: Partial<Saved> = {},
): void {
  fakeApi.classification[projectId] = { version, savedBy, savedAt, entries }
}

/** Makes `rows` the project's saved locations, as version `version`. */
export function saveLocations(
  projectId: string,
  locations: LocationRow[],
  {
    version = 1,
    savedBy = 'Charles Babbage',
    savedAt = '2024-05-01T10:00:00.000Z',
  }: Partial<Saved> = {},
): void {
  fakeApi.locations[projectId] = { version, savedBy, savedAt, locations }
}

/** Keeps an earlier version of the project's rules: in its history, and its rows to open. */
export function keepEarlierRules(
  projectId: string,
  rules: TakeoffRule[],
  { version, savedBy = 'Grace Hopper', savedAt = '2024-04-01T09:00:00.000Z' }: Saved,
): void {
  const key = `rules:${projectId}`
  fakeApi.earlierVersions[key] = [
    ...(fakeApi.earlierVersions[key] ?? []),
    { version, savedBy, savedAt, rows: rules.length },
  ].sort((a, b) => b.version - a.version)
  fakeApi.earlierDocuments[key] = [
    ...(fakeApi.earlierDocuments[key] ?? []),
    { version, savedBy, savedAt, rules },
  ]
}

const ROLES: Record<string, 'combobox' | 'spinbutton' | 'checkbox'> = {
  Match: 'combobox',
  Rate: 'spinbutton',
  Ignore: 'checkbox',
}

/** A rule's row of the rules table (1-based). */
export const ruleRow = (n: number) => screen.getByRole('row', { name: `Rule ${n}` })

/** A cell of the rules table by its column's header and its row (1-based). */
export const ruleCell = (label: string, n: number) =>
  within(ruleRow(n)).getByRole(ROLES[label] ?? 'textbox', { name: `${label}, row ${n}` })

/** A cell of the classification table by its column's header and its row (1-based). */
export const entryCell = (label: 'Code' | 'Title' | 'Parent', n: number) =>
  within(screen.getByRole('row', { name: `Entry ${n}` })).getByRole('textbox', {
    name: `${label}, row ${n}`,
  })

/**
 * Answers an import's question with Import, once the browser has read the file (the button
 * waits for the reading; its reader loads on first use).
 */
export async function confirmImport(user: UserEvent): Promise<void> {
  const button = await screen.findByRole('button', { name: 'Import' })
  await waitFor(() => expect(button).toBeEnabled(), { timeout: 10_000 })
  await user.click(button)
}
