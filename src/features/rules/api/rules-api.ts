import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import type { TakeoffRule } from '../../../../contract/takeoff-rules'
import {
  PricedJobSchema,
  type RulesDocument,
  RulesDocumentSchema,
} from '../../../../contract/takeoff-rules-api'
import { api, apiUrl } from '../../../lib/api-client'

export type { RulesDocument }

const rulesPath = (projectId: string) => `api/boq/projects/${encodeURIComponent(projectId)}/rules`

/** What a save sends: the editor's table, or a file the server reads and validates itself. */
export type RulesBody = { kind: 'rules'; rules: TakeoffRule[] } | { kind: 'file'; file: File }

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Query keys and fetchers of the rules feature, general → specific. */
export const rulesQueries = {
  all: () => ['rules'] as const,
  /** The project's saved rules (version 0 when never saved). */
  document: (projectId: string) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'document', projectId] as const,
      queryFn: async ({ signal }) =>
        v.parse(RulesDocumentSchema, await api.get(rulesPath(projectId), { signal }).json()),
    }),
  /** A finished job priced with the editor's unsaved rules: keyed by their content. */
  preview: (jobId: string, rules: TakeoffRule[]) =>
    queryOptions({
      queryKey: [...rulesQueries.all(), 'preview', jobId, { rules }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          PricedJobSchema,
          await api
            .post(`api/boq/jobs/${encodeURIComponent(jobId)}/price`, { json: { rules }, signal })
            .json(),
        ),
      // The same rules on the same kept measurements price the same.
      staleTime: Number.POSITIVE_INFINITY,
      // A refused table (400) says so on its rows at once; trying it again changes nothing.
      retry: false,
    }),
}

/**
 * PUT the project's rules as the next version after `version` (If-Match): the table as JSON, or
 * a CSV or XLSX file. Throws ky's HTTPError: 412 when someone saved in between, 400 naming a row.
 */
export async function saveRules(
  projectId: string,
  version: number,
  body: RulesBody,
): Promise<RulesDocument> {
  const headers = { 'If-Match': `"${version}"` }
  const answer =
    body.kind === 'rules'
      ? api.put(rulesPath(projectId), { json: { rules: body.rules }, headers })
      : api.put(rulesPath(projectId), {
          body: body.file,
          headers: { ...headers, 'Content-Type': fileType(body.file) },
        })
  return v.parse(RulesDocumentSchema, await answer.json())
}

/** A file's type as the server reads it: by its extension when the browser gave none. */
function fileType(file: File): string {
  if (/\.xlsx$/i.test(file.name)) return XLSX_TYPE
  if (/\.csv$/i.test(file.name)) return 'text/csv'
  return file.type || 'application/octet-stream'
}

/** The download of the project's saved rules as CSV or XLSX. */
export function rulesExportUrl(projectId: string, format: 'csv' | 'xlsx'): string {
  return apiUrl(`${rulesPath(projectId)}?format=${format}`)
}
