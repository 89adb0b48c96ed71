import type { ComponentType } from 'react'

/**
 * What the result page asks of the drawing beside its bill (another feature draws it; the app
 * hands it in): the job's drawing with `highlighted` handles marked (ringed too when `ringed`: the
 * block references a count line counts), saying "N highlighted", and calling `onPick` with the
 * handle of an entity the person picks in it. `geometryUrl` is where the job's geometry is (its
 * `result.geometryUrl`). `notMeasured` is what the bill left out, for a drawing with nothing to
 * draw to say what it holds. `labels` are names drawn at entities (the zones' at their outlines),
 * the `emphasised` one stood out.
 */
export type DrawingSlotProps = {
  jobId: string
  geometryUrl: string
  highlighted: string[]
  ringed?: boolean
  notMeasured?: readonly { type: string; count: number }[]
  labels?: readonly DrawingName[]
  onPick(handle: string): void
}

/** A name drawn at an entity of the drawing, by its handle. */
export type DrawingName = { handle: string; text: string; emphasised?: boolean }

export type DrawingSlot = ComponentType<DrawingSlotProps>
