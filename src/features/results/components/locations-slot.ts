import type { ComponentType } from 'react'
import type { Boq } from '#contract/boq.ts'
import type { Job } from '#contract/jobs.ts'
import type { DrawingName } from './drawing-slot'

/**
 * What the result page asks of its Locations tab (another feature shows it; the app hands it
 * in): the job's rooms and zones from its bill, calling `onLight` with the handles the drawing
 * lights for the zone picked (null: back to the bill's selection) and the names it draws.
 */
export type LocationsSlotProps = {
  job: Job
  boq: Boq
  onLight(handles: string[] | null, names?: readonly DrawingName[]): void
}

export type LocationsSlot = ComponentType<LocationsSlotProps>
