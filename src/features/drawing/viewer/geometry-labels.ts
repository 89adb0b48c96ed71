import type { DrawnGeometry } from '#contract/drawing-geometry.ts'
import type { DrawingLabel } from './drawing-viewer'
import type { ViewPlace, ViewSize } from './geometry-camera'

/** A name's font size on screen (CSS px), and the emphasised one's. */
export const LABEL_FONT_PX = 12
export const EMPHASISED_FONT_PX = 14
/** A sans-serif glyph's width, on average, as a share of the font size: the names are not measured. */
const GLYPH_WIDTH = 0.6
/** The room a name takes around its text, across and up (CSS px). */
const LABEL_PADDING_PX = 8
const LINE_HEIGHT = 1.4
/** The most names drawn at once: a DOM element each, placed at every frame. */
export const MAX_LABELS = 200

/**
 * The names to draw, ordered: the emphasised first, then by their entity's size, largest first.
 * Each has its anchor (where the name is centred) and its entity's box's width and height, in the
 * geometry's coordinates, four numbers a name.
 */
export type LabelPlaces = {
  boxes: Float64Array
  texts: string[]
  emphasised: boolean[]
  /** Each name's width and height on screen (CSS px), two numbers a name. */
  sizes: Float64Array
}

/** A name drawn: which of the places, and its centre in the view (CSS px from its top left). */
export type ShownLabel = { label: number; x: number; y: number }

/**
 * Where each name goes: at its entity's box's middle, or, when that lies outside the entity's
 * outline (an L-shaped room, a corridor round a core), at the middle of the widest stretch inside
 * it along the line across the box's middle. Names whose handle is not in model space, or has
 * nothing drawn, are left out. `ownerOf` finds a handle's owner; `extents` are the owners'
 * (geometry-extents.ts).
 */
export function labelPlaces(
  geometry: Pick<DrawnGeometry, 'points' | 'pathStarts' | 'pathOwners' | 'arcOwners'>,
  extents: Float64Array,
  labels: readonly DrawingLabel[],
  ownerOf: (handle: string) => number | undefined,
): LabelPlaces {
  const found: { label: DrawingLabel; owner: number; size: number }[] = []
  for (const label of labels) {
    const owner = ownerOf(label.handle)
    if (owner === undefined) continue
    const at = owner * 4
    if (!(extents[at] <= extents[at + 2])) continue
    const size = (extents[at + 2] - extents[at]) * (extents[at + 3] - extents[at + 1])
    found.push({ label, owner, size })
  }
  found.sort(
    (a, b) => Number(!!b.label.emphasised) - Number(!!a.label.emphasised) || b.size - a.size,
  )
  const outlines = outlinePaths(geometry, new Set(found.map(({ owner }) => owner)))
  const boxes = new Float64Array(found.length * 4)
  const sizes = new Float64Array(found.length * 2)
  found.forEach(({ label, owner }, i) => {
    const at = owner * 4
    const [minX, minY, maxX, maxY] = [
      extents[at],
      extents[at + 1],
      extents[at + 2],
      extents[at + 3],
    ]
    const middle = { x: (minX + maxX) / 2, y: (minY + maxY) / 2 }
    const paths = outlines.get(owner)
    const x = paths ? insideAlong(geometry, paths, middle.x, middle.y) : middle.x
    boxes.set([x, middle.y, maxX - minX, maxY - minY], i * 4)
    const font = label.emphasised ? EMPHASISED_FONT_PX : LABEL_FONT_PX
    sizes[i * 2] = label.text.length * font * GLYPH_WIDTH + LABEL_PADDING_PX
    sizes[i * 2 + 1] = font * LINE_HEIGHT
  })
  return {
    boxes,
    texts: found.map(({ label }) => label.text),
    emphasised: found.map(({ label }) => !!label.emphasised),
    sizes,
  }
}

/**
 * The paths of each of these owners drawn with paths alone. One with arcs (a circle, a polyline
 * with bulges) is left out: its paths are not its whole outline, and its box's middle is taken.
 */
function outlinePaths(
  { pathOwners, arcOwners }: Pick<DrawnGeometry, 'pathOwners' | 'arcOwners'>,
  owners: ReadonlySet<number>,
): Map<number, number[]> {
  const paths = new Map<number, number[]>()
  if (owners.size === 0) return paths
  for (let p = 0; p < pathOwners.length; p++) {
    const owner = pathOwners[p]
    if (!owners.has(owner)) continue
    const list = paths.get(owner)
    if (list) list.push(p)
    else paths.set(owner, [p])
  }
  for (const owner of arcOwners) paths.delete(owner)
  return paths
}

/**
 * x itself when (x, y) is inside the paths (even-odd, as a closed outline holds its inside),
 * else the middle of the widest stretch inside them along the line through y; x when the line
 * finds none.
 */
function insideAlong(
  { points, pathStarts }: Pick<DrawnGeometry, 'points' | 'pathStarts'>,
  paths: readonly number[],
  x: number,
  y: number,
): number {
  const crossings: number[] = []
  for (const p of paths) {
    for (let i = pathStarts[p]; i + 1 < pathStarts[p + 1]; i++) {
      const x1 = points[2 * i]
      const y1 = points[2 * i + 1]
      const x2 = points[2 * i + 2]
      const y2 = points[2 * i + 3]
      // Half open: a vertex on the line is crossed once, by one of its two edges.
      if (y1 <= y === y2 <= y) continue
      crossings.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1))
    }
  }
  crossings.sort((a, b) => a - b)
  let best: number | undefined
  let widest = 0
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const from = crossings[i]
    const to = crossings[i + 1]
    if (from <= x && x <= to) return x
    if (to - from > widest) {
      widest = to - from
      best = (from + to) / 2
    }
  }
  return best ?? x
}

/**
 * The names drawn in this view, and where. The rule, so that thousands of rooms never become a
 * smear: a name is drawn when its entity's box, on screen, is at least as wide as the name and as
 * tall as a line (the name fits its room), when it is in view, and when it does not overlap a name
 * drawn already. Names are placed largest entity first (fitted, the levels and the big rooms are
 * named; zoomed in, each room as it grows big enough), at most MAX_LABELS. The emphasised name is
 * drawn first whenever it is in view, however small its entity.
 */
export function layoutLabels(places: LabelPlaces, place: ViewPlace, size: ViewSize): ShownLabel[] {
  const { boxes, emphasised, sizes } = places
  const shown: ShownLabel[] = []
  // The names drawn: left, top, right, bottom, four numbers each.
  const taken = new Float64Array(MAX_LABELS * 4)
  const perPx = place.unitsPerPx
  for (let i = 0; i < emphasised.length && shown.length < MAX_LABELS; i++) {
    const width = sizes[i * 2]
    const height = sizes[i * 2 + 1]
    const fits = boxes[i * 4 + 2] / perPx >= width && boxes[i * 4 + 3] / perPx >= height
    if (!fits && !emphasised[i]) continue
    const x = size.width / 2 + (boxes[i * 4] - place.x) / perPx
    const y = size.height / 2 - (boxes[i * 4 + 1] - place.y) / perPx
    const left = x - width / 2
    const top = y - height / 2
    const right = x + width / 2
    const bottom = y + height / 2
    if (right < 0 || bottom < 0 || left > size.width || top > size.height) continue
    let clear = true
    for (let at = 0; at < shown.length * 4; at += 4) {
      if (
        left < taken[at + 2] &&
        taken[at] < right &&
        top < taken[at + 3] &&
        taken[at + 1] < bottom
      ) {
        clear = false
        break
      }
    }
    if (!clear) continue
    taken.set([left, top, right, bottom], shown.length * 4)
    shown.push({ label: i, x, y })
  }
  return shown
}
