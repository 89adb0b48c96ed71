/**
 * The engine's options. The BOQ's JSON form itself is part of the HTTP contract
 * (contract/boq.ts), re-exported here for the engine's modules.
 */
import type { StatedUnit, UnitSystem } from '#contract/units.ts'

export * from '#contract/boq.ts'
export { STATED_UNITS, type StatedUnit, type UnitSystem } from '#contract/units.ts'

/** What the person asked for; both optional. */
export type BillOptions = {
  /** Unset: metric for a metric drawing, imperial for an imperial one, drawing units when unitless. */
  units?: UnitSystem
  /** The unit of a drawing that does not state one (ignored when the drawing states its own). */
  drawingUnits?: StatedUnit
  /** Split count lines by these attribute tags (`visibility`: the dynamic visibility state). */
  splitBy?: string[]
}
