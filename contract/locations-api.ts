import * as v from 'valibot'
import { LocationRowSchema, MAX_LOCATION_ROWS } from './locations.ts'
import { savedFields } from './saved-document.ts'

/**
 * The HTTP shape of a project's locations table, versioned as its rules are: version 0 is "never
 * saved" (no rows); a save names the version it replaces (If-Match).
 */

/** GET/PUT /api/boq/projects/{projectId}/locations (JSON). */
export const LocationsDocumentSchema = v.object({
  ...savedFields,
  locations: v.pipe(v.array(LocationRowSchema), v.maxLength(MAX_LOCATION_ROWS)),
})
export type LocationsDocument = v.InferOutput<typeof LocationsDocumentSchema>
