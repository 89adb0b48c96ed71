import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  type BillSettings,
  type BillSettingsDocument,
  BillSettingsDocumentSchema,
  BillSettingsVersionSchema,
} from '#contract/bill-settings.ts'
import { api } from '../../../lib/api-client'

export type {
  BillSettings,
  BillSettingsDocument,
  BillSettingsVersion,
} from '#contract/bill-settings.ts'

const settingsPath = (projectId: string) =>
  `api/boq/projects/${encodeURIComponent(projectId)}/bill-settings`

/** Query keys and fetchers of a project's bill settings, general → specific. */
export const billSettingsQueries = {
  all: () => ['bill-settings'] as const,
  /** The project's current settings (version 0, `{}`, when never saved). */
  document: (projectId: string) =>
    queryOptions({
      queryKey: [...billSettingsQueries.all(), 'document', { projectId }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          BillSettingsDocumentSchema,
          await api.get(settingsPath(projectId), { signal }).json(),
        ),
    }),
  /** Every saved version, newest first. */
  history: (projectId: string) =>
    queryOptions({
      queryKey: [...billSettingsQueries.all(), 'history', { projectId }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          v.array(BillSettingsVersionSchema),
          await api.get(`${settingsPath(projectId)}/history`, { signal }).json(),
        ),
    }),
  /** One saved version: a version never changes. */
  version: (projectId: string, version: number) =>
    queryOptions({
      queryKey: [...billSettingsQueries.all(), 'version', { projectId, version }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          BillSettingsDocumentSchema,
          await api.get(`${settingsPath(projectId)}/history/${version}`, { signal }).json(),
        ),
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/**
 * PUT the settings as the next version after `version` (If-Match). Throws ky's HTTPError: 412
 * when someone saved in between, 400 with a line per field that is wrong.
 */
export async function saveBillSettings(
  projectId: string,
  version: number,
  settings: BillSettings,
): Promise<BillSettingsDocument> {
  const answer = api.put(settingsPath(projectId), {
    json: { settings },
    headers: { 'If-Match': `"${version}"` },
  })
  return v.parse(BillSettingsDocumentSchema, await answer.json())
}
