import type { DrawnGeometry } from '#contract/drawing-geometry.ts'
import type { Extents } from './main-extents'

/** Sides of a whole circle at the least (a pixel or two across; a speck takes one), and at most. */
export const MIN_TURN_SIDES = 4
export const MAX_TURN_SIDES = 64
const TURN = 2 * Math.PI
/** Items between two reports of progress while buffers are built. */
const ITEMS_PER_STEP = 16_384

/** A run of vertices in one colour (an index into the geometry's colours). */
export type ColourGroup = { colour: number; start: number; count: number }

/**
 * What the GPU draws, as typed arrays of x y pairs: line segments (two vertices each) and filled
 * triangles (three each), each sorted by colour into groups, in the order of the geometry's
 * colours. Drawn in one colour (a highlight), a buffer is drawn whole and its groups ignored.
 */
export type GeometryBuffers = {
  lines: Float32Array
  lineGroups: ColourGroup[]
  fills: Float32Array
  fillGroups: ColourGroup[]
}

export type BufferOptions = {
  /** How far (drawing units) a side of an arc may stray from it. */
  tolerance: number
  /** Arcs reaching into this box stray at most this (a finer tolerance): those near the view. */
  near?: { box: Extents; tolerance: number }
  /** Only the parts of owners flagged here (1) are built; all without it. */
  owners?: Uint8Array
}

/**
 * How many sides an arc is drawn with: enough that none strays from the arc by more than
 * `tolerance`, so that a small circle gets few and a big one many (geometry-detail.ts sets the
 * tolerance by the zoom).
 */
export function arcSides(radius: number, sweep: number, tolerance: number): number {
  // A speck: no farther from its centre than the tolerance, it strays no farther from one side
  // across it (see writeArc). Zoomed out, most of a drawing's circles are specks.
  if (radius <= tolerance) return 1
  // A side spanning θ strays from its arc by r (1 − cos θ/2) ≈ r θ² / 8.
  const wanted = tolerance > 0 ? Math.ceil(TURN / Math.sqrt((8 * tolerance) / radius)) : Infinity
  const perTurn = Math.min(MAX_TURN_SIDES, Math.max(MIN_TURN_SIDES, wanted || MIN_TURN_SIDES))
  const turns = Math.min(1, Math.abs(sweep) / TURN)
  // Less a hair: a half turn stored as float32 is a little over half, and would take a side more.
  return Math.max(1, Math.ceil(perTurn * turns - 1e-4))
}

/** Builds the buffers at once (see bufferSteps). */
export function buildBuffers(geometry: DrawnGeometry, options: BufferOptions): GeometryBuffers {
  const steps = bufferSteps(geometry, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * Builds the buffers of the geometry's paths, arcs (as `arcSides` sides) and triangles, yielding
 * how far it has got (percent) every few thousand items, so that a caller may report it and let
 * the page breathe. Counts first, then fills arrays of the exact size: no array grows, and no
 * object is made per item.
 */
export function* bufferSteps(
  geometry: DrawnGeometry,
  { tolerance, near, owners }: BufferOptions,
): Generator<number, GeometryBuffers> {
  const paths = geometry.pathOwners.length
  const arcs = geometry.arcOwners.length
  const triangles = geometry.triangleOwners.length
  const colours = geometry.colours.length
  const total = 2 * (paths + arcs) + triangles
  let done = 0
  // The hot loops are plain functions over a run of items; between runs, progress.
  function* inRuns(count: number, run: (from: number, to: number) => void) {
    for (let from = 0; from < count; from += ITEMS_PER_STEP) {
      const to = Math.min(count, from + ITEMS_PER_STEP)
      run(from, to)
      done += to - from
      yield Math.min(100, (100 * done) / total)
    }
  }

  // Segments and triangles by colour; each arc's sides, worked out once.
  const segmentCounts = new Uint32Array(colours)
  const triangleCounts = new Uint32Array(colours)
  const sides = new Uint16Array(arcs)
  yield* inRuns(paths, (from, to) => countPaths(geometry, owners, segmentCounts, from, to))
  yield* inRuns(arcs, (from, to) =>
    countArcs(geometry, owners, tolerance, near, sides, segmentCounts, from, to),
  )
  const { triangleOwners, triangleColours } = geometry
  for (let t = 0; t < triangles; t++) {
    if (owners === undefined || owners[triangleOwners[t]] === 1) {
      triangleCounts[triangleColours[t]]++
    }
  }

  const lineGroups = groupsOf(segmentCounts, 2)
  const fillGroups = groupsOf(triangleCounts, 3)
  const lines = new Float32Array(endOf(lineGroups) * 2)
  const fills = new Float32Array(endOf(fillGroups) * 2)
  // Where the next vertex of each colour goes, in numbers (x and y).
  const lineAt = new Float64Array(colours)
  for (const group of lineGroups) lineAt[group.colour] = group.start * 2
  const fillAt = new Float64Array(colours)
  for (const group of fillGroups) fillAt[group.colour] = group.start * 2

  yield* inRuns(paths, (from, to) => writePaths(geometry, owners, lines, lineAt, from, to))
  yield* inRuns(arcs, (from, to) => writeArcs(geometry, owners, sides, lines, lineAt, from, to))
  for (let t = 0; t < triangles; t++) {
    if (owners !== undefined && owners[triangleOwners[t]] !== 1) continue
    const colour = triangleColours[t]
    fills.set(geometry.triangles.subarray(t * 6, t * 6 + 6), fillAt[colour])
    fillAt[colour] += 6
  }
  return { lines, lineGroups, fills, fillGroups }
}

type Owners = Uint8Array | undefined

function countPaths(
  { pathStarts, pathOwners, pathColours }: DrawnGeometry,
  owners: Owners,
  counts: Uint32Array,
  from: number,
  to: number,
) {
  for (let p = from; p < to; p++) {
    if (owners !== undefined && owners[pathOwners[p]] !== 1) continue
    const segments = pathStarts[p + 1] - pathStarts[p] - 1
    if (segments > 0) counts[pathColours[p]] += segments
  }
}

function countArcs(
  { arcs, arcOwners, arcColours }: DrawnGeometry,
  owners: Owners,
  tolerance: number,
  near: BufferOptions['near'],
  sides: Uint16Array,
  counts: Uint32Array,
  from: number,
  to: number,
) {
  for (let a = from; a < to; a++) {
    if (owners !== undefined && owners[arcOwners[a]] !== 1) continue
    const radius = arcs[a * 5 + 2]
    // Near by its circle's box: an arc's own would take more than it saves.
    const isNear =
      near !== undefined &&
      arcs[a * 5] + radius >= near.box.minX &&
      arcs[a * 5] - radius <= near.box.maxX &&
      arcs[a * 5 + 1] + radius >= near.box.minY &&
      arcs[a * 5 + 1] - radius <= near.box.maxY
    const n = arcSides(radius, arcs[a * 5 + 4], isNear ? near.tolerance : tolerance)
    sides[a] = n
    counts[arcColours[a]] += n
  }
}

function writePaths(
  { points, pathStarts, pathOwners, pathColours }: DrawnGeometry,
  owners: Owners,
  lines: Float32Array,
  lineAt: Float64Array,
  from: number,
  to: number,
) {
  for (let p = from; p < to; p++) {
    if (owners !== undefined && owners[pathOwners[p]] !== 1) continue
    const colour = pathColours[p]
    let at = lineAt[colour]
    const last = pathStarts[p + 1] - 1
    for (let i = pathStarts[p]; i < last; i++) {
      lines[at] = points[2 * i]
      lines[at + 1] = points[2 * i + 1]
      lines[at + 2] = points[2 * i + 2]
      lines[at + 3] = points[2 * i + 3]
      at += 4
    }
    lineAt[colour] = at
  }
}

function writeArcs(
  { arcs, arcOwners, arcColours }: DrawnGeometry,
  owners: Owners,
  sides: Uint16Array,
  lines: Float32Array,
  lineAt: Float64Array,
  from: number,
  to: number,
) {
  for (let a = from; a < to; a++) {
    if (owners !== undefined && owners[arcOwners[a]] !== 1) continue
    const colour = arcColours[a]
    lineAt[colour] = writeArc(lines, lineAt[colour], arcs, a, sides[a])
  }
}

/**
 * Writes arc `a` as `sides` segments from `at`; returns where the next goes. Each point is the
 * last turned by one side's angle: two trigonometric calls an arc, not two a point. A single
 * side goes at most half a turn, across the arc: a whole circle's would be no line at all.
 */
function writeArc(lines: Float32Array, at: number, arcs: Float32Array, a: number, sides: number) {
  const cx = arcs[a * 5]
  const cy = arcs[a * 5 + 1]
  const radius = arcs[a * 5 + 2]
  const start = arcs[a * 5 + 3]
  const sweep = arcs[a * 5 + 4]
  const step = sides === 1 ? Math.sign(sweep) * Math.min(Math.abs(sweep), Math.PI) : sweep / sides
  const cos = Math.cos(step)
  const sin = Math.sin(step)
  let dx = radius * Math.cos(start)
  let dy = radius * Math.sin(start)
  for (let i = 0; i < sides; i++) {
    lines[at] = cx + dx
    lines[at + 1] = cy + dy
    const nx = dx * cos - dy * sin
    dy = dx * sin + dy * cos
    dx = nx
    lines[at + 2] = cx + dx
    lines[at + 3] = cy + dy
    at += 4
  }
  return at
}

/** The non-empty colours' runs, in colour order, of `perItem` vertices an item. */
function groupsOf(counts: Uint32Array, perItem: number): ColourGroup[] {
  const groups: ColourGroup[] = []
  let start = 0
  for (let colour = 0; colour < counts.length; colour++) {
    if (counts[colour] === 0) continue
    const count = counts[colour] * perItem
    groups.push({ colour, start, count })
    start += count
  }
  return groups
}

const endOf = (groups: ColourGroup[]) => {
  const last = groups.at(-1)
  return last ? last.start + last.count : 0
}
