import type { Extents } from './main-extents'
import type { PictureMove } from './move-picture'

/**
 * What the view shows: the drawing's point at its middle (the geometry's coordinates, y up) and
 * how many drawing units a CSS pixel spans.
 */
export type ViewPlace = { x: number; y: number; unitsPerPx: number }

/** The view's size in CSS pixels. */
export type ViewSize = { width: number; height: number }

/** The place that shows `box` whole, `margin` times its size (1: edge to edge), in the middle. */
export function framing(box: Extents, size: ViewSize, margin: number): ViewPlace {
  const width = Math.max(box.maxX - box.minX, Number.EPSILON) * margin
  const height = Math.max(box.maxY - box.minY, Number.EPSILON) * margin
  return {
    x: (box.minX + box.maxX) / 2,
    y: (box.minY + box.maxY) / 2,
    unitsPerPx: Math.max(width / Math.max(size.width, 1), height / Math.max(size.height, 1)),
  }
}

/** The drawing's point under the view's point (px, py), CSS pixels from its top left corner. */
export function drawingPoint(place: ViewPlace, px: number, py: number, size: ViewSize) {
  return {
    x: place.x + (px - size.width / 2) * place.unitsPerPx,
    y: place.y - (py - size.height / 2) * place.unitsPerPx,
  }
}

/** Zoomed `factor` times closer (below 1: farther) keeping the drawing under (px, py) there. */
export function zoomedAbout(
  place: ViewPlace,
  factor: number,
  px: number,
  py: number,
  size: ViewSize,
): ViewPlace {
  const fixed = drawingPoint(place, px, py, size)
  const unitsPerPx = place.unitsPerPx / factor
  return {
    x: fixed.x - (px - size.width / 2) * unitsPerPx,
    y: fixed.y + (py - size.height / 2) * unitsPerPx,
    unitsPerPx,
  }
}

/** The drawing dragged by (dx, dy) CSS pixels, right and down positive. */
export function panned(place: ViewPlace, dx: number, dy: number): ViewPlace {
  return {
    x: place.x - dx * place.unitsPerPx,
    y: place.y + dy * place.unitsPerPx,
    unitsPerPx: place.unitsPerPx,
  }
}

/** The place that shows, drawn, what the view's picture moved by `move` shows. */
export function afterPictureMove(place: ViewPlace, move: PictureMove, size: ViewSize): ViewPlace {
  // The view's middle now shows what was at this point of the picture.
  const middle = drawingPoint(
    place,
    (size.width / 2 - move.dx) / move.scale,
    (size.height / 2 - move.dy) / move.scale,
    size,
  )
  return { ...middle, unitsPerPx: place.unitsPerPx / move.scale }
}

/**
 * The zoom `factor` cut so that a pixel spans between a millionth and ten times `extent` (the
 * drawing's size): closer, float32 coordinates blur; farther, the drawing is gone.
 */
export function limitedZoom(place: ViewPlace, factor: number, extent: number): number {
  const size = extent > 0 ? extent : 1
  const unitsPerPx = Math.min(size * 10, Math.max(size * 1e-6, place.unitsPerPx / factor))
  return place.unitsPerPx / unitsPerPx
}

/** What the view shows, in drawing units. */
export function viewExtents(place: ViewPlace, size: ViewSize): Extents {
  const halfWidth = (size.width / 2) * place.unitsPerPx
  const halfHeight = (size.height / 2) * place.unitsPerPx
  return {
    minX: place.x - halfWidth,
    minY: place.y - halfHeight,
    maxX: place.x + halfWidth,
    maxY: place.y + halfHeight,
  }
}
