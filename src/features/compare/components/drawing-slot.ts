import type { ComponentType } from 'react'

/**
 * What the compare page asks of the drawing beside the change bill (another feature draws it;
 * the app hands it in): a job's drawing with the `marked` entities coloured, added in green and
 * removed in red, saying how many of each.
 */
export type ChangeDrawingProps = {
  jobId: string
  marked: { added: string[]; removed: string[] }
}

export type ChangeDrawingSlot = ComponentType<ChangeDrawingProps>
