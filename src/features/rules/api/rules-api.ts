import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import type { LocationRow } from '#contract/locations.ts'
import { type LocationsDocument, LocationsDocumentSchema } from '#contract/locations-api.ts'
import { LocationsPreviewSchema } from '#contract/locations-preview.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import {
  type ClassificationDocument,
  ClassificationDocumentSchema,
  PricedJobSchema,
  type RulesDocument,
  RulesDocumentSchema,
  SavedVersionSchema,
} from '#contract/takeoff-rules-api.ts'
import { api, apiUrl } from '../../../lib/api-client'
import { httpStatus } from '../../../lib/http-errors'

export type { SavedVersion } from '#contract/takeoff-rules-api.ts'
export type { ClassificationDocument, LocationsDocument, RulesDocument }

/**
 * A project's versioned tables: its takeoff rules, its classification system and its locations
 * (which closed outlines of its drawings are rooms, named how).
 */
export type TableKind = 'rules' | 'classification' | 'locations'

/** One row of each table, as the API takes it. */
export type TableRow = {
  rules: TakeoffRule
  classification: ClassificationEntry
  locations: LocationRow
}

/** Each table's saved document (GET and PUT answer it). */
export type TableDocument = {
  rules: RulesDocument
  classification: ClassificationDocument
  locations: LocationsDocument
}

/** The key of each document's list of rows. */
export const LIST_KEY = {
  rules: 'rules',
  classification: 'entries',
  locations: 'locations',
} as const

const DOCUMENT_SCHEMAS = {
  rules: RulesDocumentSchema,
  classification: ClassificationDocumentSchema,
  locations: LocationsDocumentSchema,
}

/** A document's rows, whichever table it is of. */
export function rowsOf<T extends TableKind>(table: T, document: TableDocument[T]): TableRow[T][] {
  return (document as Record<string, unknown>)[LIST_KEY[table]] as TableRow[T][]
}

const tablePath = (projectId: string, table: TableKind) =>
  `api/boq/projects/${encodeURIComponent(projectId)}/${table}`

/** What a save sends: the editor's rows, or a file the server reads and validates itself. */
export type TableBody<T extends TableKind> =
  | { kind: 'rows'; rows: TableRow[T][] }
  | { kind: 'file'; file: File }

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Query keys and fetchers of the rules feature, general → specific. */
export const rulesQueries = {
  all: () => ['rules'] as const,
  /** A project's saved table (version 0 when never saved). */
  document: <T extends TableKind>(projectId: string, table: T) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'document', { projectId, table }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          DOCUMENT_SCHEMAS[table],
          await api.get(tablePath(projectId, table), { signal }).json(),
        ) as TableDocument[T],
    }),
  /** Every saved version of a project's table, newest first. */
  history: (projectId: string, table: TableKind) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'history', { projectId, table }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          v.array(SavedVersionSchema),
          await api.get(`${tablePath(projectId, table)}/history`, { signal }).json(),
        ),
    }),
  /** One saved version of a project's table, with its rows: a version never changes. */
  version: <T extends TableKind>(projectId: string, table: T, version: number) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'version', { projectId, table, version }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          DOCUMENT_SCHEMAS[table],
          await api.get(`${tablePath(projectId, table)}/history/${version}`, { signal }).json(),
        ) as TableDocument[T],
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** Every preview: a save of the classification names their items again. */
  previews: () => [...rulesQueries.all(), 'preview'] as const,
  /** A finished job priced with the editor's unsaved rules: keyed by their content. */
  preview: (jobId: string, rules: TakeoffRule[]) =>
    queryOptions({
      queryKey: [...rulesQueries.previews(), jobId, { rules }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          PricedJobSchema,
          await api
            .post(`api/boq/jobs/${encodeURIComponent(jobId)}/price`, { json: { rules }, signal })
            .json(),
        ),
      // The same rules on the same kept measurements price the same (until the classification
      // is saved: that save drops every preview).
      staleTime: Number.POSITIVE_INFINITY,
      // A refused table (400) says so on its rows at once; trying it again changes nothing.
      retry: false,
    }),
  /** The zones the editor's unsaved locations find in a finished job's drawing, read again. */
  locationsPreview: (jobId: string, locations: LocationRow[]) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'locations-preview', jobId, { locations }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          LocationsPreviewSchema,
          await api
            .post(`api/boq/jobs/${encodeURIComponent(jobId)}/locations-preview`, {
              json: { locations },
              signal,
            })
            .json(),
        ),
      // The same rows find the same zones in the same drawing version.
      staleTime: Number.POSITIVE_INFINITY,
      // Refused (400 on its rows), gone (404) or unreadable (422): asking again changes nothing.
      // Busy (429: the person's previews overlap while they type) is asked again once it passes.
      retry: (count, error) => httpStatus(error) === 429 && count < 3,
      retryDelay: 2000,
    }),
}

/**
 * PUT a project's table as the next version after `version` (If-Match): the rows as JSON, or a
 * CSV or XLSX file. Throws ky's HTTPError: 412 when someone saved in between, 400 naming a row.
 */
export async function saveTable<T extends TableKind>(
  projectId: string,
  table: T,
  version: number,
  body: TableBody<T>,
): Promise<TableDocument[T]> {
  const headers = { 'If-Match': `"${version}"` }
  const path = tablePath(projectId, table)
  const answer =
    body.kind === 'rows'
      ? api.put(path, { json: { [LIST_KEY[table]]: body.rows }, headers })
      : api.put(path, {
          body: body.file,
          headers: { ...headers, 'Content-Type': fileType(body.file) },
        })
  return v.parse(DOCUMENT_SCHEMAS[table], await answer.json()) as TableDocument[T]
}

/** A file's type as the server reads it: by its extension when the browser gave none. */
function fileType(file: File): string {
  if (/\.xlsx$/i.test(file.name)) return XLSX_TYPE
  if (/\.csv$/i.test(file.name)) return 'text/csv'
  return file.type || 'application/octet-stream'
}

/** The download of a project's saved table as CSV or XLSX. */
export function tableExportUrl(
  projectId: string,
  table: TableKind,
  format: 'csv' | 'xlsx',
): string {
  return apiUrl(`${tablePath(projectId, table)}?format=${format}`)
}
