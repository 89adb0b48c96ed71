import type { Extents } from './main-extents'

/**
 * How finely arcs are drawn follows the zoom: their sides may stray from them by ARC_PX on screen,
 * so that zoomed out, where a circle is a speck, it takes few sides (without a GPU a frame costs
 * what its sides do), and zoomed in they are smooth. Levels go by twos: level k strays
 * FLOOR_SHARE of the drawing's size times 2^k. Zoomed in past level 0, only the arcs near the
 * view are drawn finer, those farther at level 0: every arc is drawn at every frame, and a whole
 * drawing of fine circles would take seconds.
 */

/** How far (CSS px) an arc's sides may stray from it on screen. */
export const ARC_PX = 0.5
/** Level 0's tolerance, a share of the drawing's size: half a pixel zoomed about 6 times in. */
export const FLOOR_SHARE = 1 / 8000
/** Beyond these, every arc has the fewest sides, or the most, anyway. */
const COARSEST_LEVEL = 16
const FINEST_LEVEL = -24

/** How finely arcs are built: at `level`, and finer than level 0 only in `near`. */
export type Detail = { level: number; near: Extents | undefined }

/** The tolerance (drawing units) of arcs built at `level`. */
export const toleranceAt = (floor: number, level: number) => floor * 2 ** level

/** The coarsest level whose arcs stray at most ARC_PX from their arcs at `unitsPerPx`. */
export function detailLevel(unitsPerPx: number, floor: number): number {
  if (!(floor > 0) || !(unitsPerPx > 0)) return 0
  const level = Math.floor(Math.log2((ARC_PX * unitsPerPx) / floor))
  return Math.min(COARSEST_LEVEL, Math.max(FINEST_LEVEL, level))
}

/** The detail for a view of `view` (drawing units) at `unitsPerPx`. */
export function detailFor(view: Extents, unitsPerPx: number, floor: number): Detail {
  const level = detailLevel(unitsPerPx, floor)
  return { level, near: level < 0 ? aroundView(view) : undefined }
}

/**
 * The detail to build arcs at for this view, or undefined when the one built still does: a finer
 * level is built at once, a coarser one only two levels on (zooming back and forth over a level's
 * edge rebuilds nothing), and zoomed in, once the view leaves the part drawn finer.
 */
export function nextDetail(
  built: Detail,
  view: Extents,
  unitsPerPx: number,
  floor: number,
): Detail | undefined {
  const wanted = detailLevel(unitsPerPx, floor)
  const levelHolds = wanted === built.level || wanted === built.level + 1
  const nearHolds = wanted >= 0 || (built.near !== undefined && inside(view, built.near))
  return levelHolds && nearHolds ? undefined : detailFor(view, unitsPerPx, floor)
}

/** The view and as much again on each side: panning that far rebuilds nothing. */
function aroundView(view: Extents): Extents {
  const width = view.maxX - view.minX
  const height = view.maxY - view.minY
  return {
    minX: view.minX - width,
    minY: view.minY - height,
    maxX: view.maxX + width,
    maxY: view.maxY + height,
  }
}

const inside = (box: Extents, around: Extents) =>
  box.minX >= around.minX &&
  box.minY >= around.minY &&
  box.maxX <= around.maxX &&
  box.maxY <= around.maxY
