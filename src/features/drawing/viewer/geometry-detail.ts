/**
 * How finely arcs are drawn follows the zoom: their sides may stray from them by ARC_PX on screen,
 * so that zoomed out, where a circle is a speck, it takes few sides (without a GPU a frame costs
 * what its sides do), and zoomed in they are smooth. Arcs are rebuilt when the zoom crosses a
 * level (each twice as coarse as the one before), down to the finest, FINEST_SHARE of the
 * drawing's size: closer than that they stay as they are, since every arc is drawn at every frame.
 */

/** How far (CSS px) an arc's sides may stray from it on screen. */
export const ARC_PX = 0.5
/** The finest tolerance, a share of the drawing's size: half a pixel zoomed 16 times in. */
export const FINEST_SHARE = 1 / 45_000
/** Beyond this, every arc has the fewest sides anyway. */
const COARSEST_LEVEL = 16

/** The tolerance (drawing units) of arcs built at `level`. */
export const toleranceAt = (finest: number, level: number) => finest * 2 ** level

/** The coarsest level whose arcs stray at most ARC_PX from their arcs at `unitsPerPx`. */
export function detailLevel(unitsPerPx: number, finest: number): number {
  if (!(finest > 0) || !(unitsPerPx > 0)) return 0
  const level = Math.floor(Math.log2((ARC_PX * unitsPerPx) / finest))
  return Math.min(COARSEST_LEVEL, Math.max(0, level))
}

/**
 * Whether arcs built at level `built` still do for a view that wants `wanted`: a finer level is
 * built at once; a coarser one only two levels on, so that zooming back and forth over one
 * level's edge rebuilds nothing.
 */
export function detailHolds(built: number, wanted: number): boolean {
  return wanted === built || wanted === built + 1
}
