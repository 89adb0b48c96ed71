import type { CloudContext } from '../cloud/types.ts'
import type { NewWatch, WatchedVersion, WatchRecord } from './store/types.ts'

/**
 * How one cloud tells a watch of new versions. The local cloud is polled (a file dropped by hand
 * tells nobody); Autodesk calls a webhook. Both start a watch and end it through this seam.
 */
export interface WatchSource {
  /**
   * Sets the watch up at the cloud, with its owner's context: answers the hook made for it
   * (Autodesk) and the versions already in the folder, never to be extracted (the local cloud).
   * Fails with the cloud's AppError (404: a folder the person cannot see).
   */
  begin(
    ctx: CloudContext,
    watch: NewWatch,
  ): Promise<{ hookId?: string; existing?: WatchedVersion[] }>
  /** Undoes `begin` (Autodesk: deletes the hook). */
  end(ctx: CloudContext, watch: WatchRecord): Promise<void>
}

/** A drawing a watch extracts: a `.dwg`; the bills BOQ writes back (`… BOQ.xlsx`) never are. */
export function isWatchedDrawing(fileName: string): boolean {
  return /\.dwg$/i.test(fileName)
}
