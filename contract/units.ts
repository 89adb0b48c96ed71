import * as v from 'valibot'

/** Which units the bill is in: metric, imperial, or the drawing's own (unset: by the drawing). */
export const UNIT_SYSTEMS = ['metric', 'imperial', 'drawing'] as const
export const UnitSystemSchema = v.picklist(UNIT_SYSTEMS)
export type UnitSystem = v.InferOutput<typeof UnitSystemSchema>

/** Units a person may state for a drawing that does not state its own. */
export const STATED_UNITS = ['mm', 'cm', 'm', 'in', 'ft'] as const
export const StatedUnitSchema = v.picklist(STATED_UNITS)
export type StatedUnit = v.InferOutput<typeof StatedUnitSchema>

/**
 * The bill's units as the person chose them for one extraction: the optional `units` field of
 * POST /api/boq/extract, kept with the job and shown in its JSON. Without `system` the bill follows
 * the drawing (metric drawings in m and m², imperial ones in ft and ft², unitless ones in their
 * own units); `drawingUnits` is the unit of a drawing that does not state one.
 */
export const ExtractUnitsSchema = v.pipe(
  // valibot's object schemas take arrays too; a JSON object is what is meant.
  v.custom<object>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
  v.strictObject({
    system: v.optional(UnitSystemSchema),
    drawingUnits: v.optional(StatedUnitSchema),
  }),
)
export type ExtractUnits = v.InferOutput<typeof ExtractUnitsSchema>
