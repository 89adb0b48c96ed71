import * as v from 'valibot'
import { FolderPlaceSchema, RequiredTextSchema } from './jobs.ts'
import { ExtractUnitsSchema } from './units.ts'

/**
 * The body of POST /api/boq/watches: the folder to watch (it and its subfolders), its project, and
 * the units every bill it starts is made in (absent, null or `{}`: by each drawing).
 */
export const WatchRequestSchema = v.object({
  projectId: RequiredTextSchema,
  fileFolderId: RequiredTextSchema,
  units: v.nullish(ExtractUnitsSchema),
})
export type WatchRequest = v.InferInput<typeof WatchRequestSchema>

/**
 * `active`: new drawing versions get their bill by themselves. `paused`: nothing is started until
 * the person acts, `pausedReason` says why and what to do (Autodesk refused BOQ's standing access).
 */
export const WATCH_STATES = ['active', 'paused'] as const
export const WatchStateSchema = v.picklist(WATCH_STATES)
export type WatchState = v.InferOutput<typeof WatchStateSchema>

/** A watched folder as the API answers it. */
export const WatchSchema = v.object({
  id: v.string(),
  projectId: v.string(),
  fileFolderId: v.string(),
  /** Where the folder sits. */
  folder: FolderPlaceSchema,
  units: v.nullable(ExtractUnitsSchema),
  createdAt: v.string(),
  state: WatchStateSchema,
  pausedReason: v.nullable(v.string()),
  /** New versions seen and waiting for a free place in the person's job limit. */
  waiting: v.number(),
  /**
   * Where the person allows BOQ to act for them while they are away, when the watch is paused
   * for want of it (Autodesk); null otherwise.
   */
  consentUrl: v.nullable(v.string()),
})
export type Watch = v.InferOutput<typeof WatchSchema>

/** GET /api/boq/watches: the signed-in user's watches, newest first. */
export const WatchListSchema = v.object({ data: v.array(WatchSchema) })
export type WatchList = v.InferOutput<typeof WatchListSchema>
