import type { ComponentType } from 'react'

/**
 * What the result page asks of the drawing beside its bill (another feature draws it; the app
 * hands it in): the job's drawing with `highlighted` handles marked, saying "N highlighted", and
 * calling `onPick` with the handle of an entity the person picks in it.
 */
export type DrawingSlotProps = {
  jobId: string
  highlighted: string[]
  onPick(handle: string): void
}

export type DrawingSlot = ComponentType<DrawingSlotProps>
