import { arcBounds, type DrawnGeometry } from '#contract/drawing-geometry.ts'
import { type Extents, mainOfBoxes } from './main-extents'

/**
 * Each owner's extents in the geometry's coordinates, four numbers an owner (min x, min y, max x,
 * max y): the box of everything drawn for it, arcs by their sweep. An owner with nothing drawn
 * has min above max (infinities).
 */
export function ownerExtents(geometry: DrawnGeometry): Float64Array {
  const box = new Float64Array(geometry.handles.length * 4)
  for (let at = 0; at < box.length; at += 4) {
    box[at] = Number.POSITIVE_INFINITY
    box[at + 1] = Number.POSITIVE_INFINITY
    box[at + 2] = Number.NEGATIVE_INFINITY
    box[at + 3] = Number.NEGATIVE_INFINITY
  }
  const add = (owner: number, x: number, y: number) => {
    const at = owner * 4
    if (x < box[at]) box[at] = x
    if (y < box[at + 1]) box[at + 1] = y
    if (x > box[at + 2]) box[at + 2] = x
    if (y > box[at + 3]) box[at + 3] = y
  }
  const { points, pathStarts, pathOwners, arcs, arcOwners, triangles, triangleOwners } = geometry
  for (let p = 0; p < pathOwners.length; p++) {
    const owner = pathOwners[p]
    for (let i = pathStarts[p]; i < pathStarts[p + 1]; i++)
      add(owner, points[2 * i], points[2 * i + 1])
  }
  for (let a = 0; a < arcOwners.length; a++) {
    const owner = arcOwners[a]
    const cx = arcs[a * 5]
    const cy = arcs[a * 5 + 1]
    const radius = arcs[a * 5 + 2]
    const start = arcs[a * 5 + 3]
    const sweep = arcs[a * 5 + 4]
    arcBounds(cx, cy, radius, start, sweep, (x, y) => add(owner, x, y))
  }
  for (let t = 0; t < triangleOwners.length; t++) {
    for (let corner = 0; corner < 3; corner++) {
      add(triangleOwners[t], triangles[t * 6 + corner * 2], triangles[t * 6 + corner * 2 + 1])
    }
  }
  return box
}

/** The extents of these owners (every owner without a list) that have anything drawn. */
export function extentsOf(box: Float64Array, owners?: Iterable<number>): Extents[] {
  const found: Extents[] = []
  const take = (owner: number) => {
    const at = owner * 4
    if (!(box[at] <= box[at + 2])) return
    found.push({ minX: box[at], minY: box[at + 1], maxX: box[at + 2], maxY: box[at + 3] })
  }
  if (owners) for (const owner of owners) take(owner)
  else for (let owner = 0; owner < box.length / 4; owner++) take(owner)
  return found
}

/**
 * What mainExtents finds for these owners (every owner without a list): the box that frames them,
 * leaving out the few far from where most are.
 */
export function mainBoxOf(box: Float64Array, owners?: readonly number[]): Extents | undefined {
  const count = owners ? owners.length : box.length / 4
  const drawn = new Float64Array(count * 4)
  let length = 0
  for (let i = 0; i < count; i++) {
    const at = (owners ? (owners[i] as number) : i) * 4
    if (!(box[at] <= box[at + 2])) continue
    drawn[length] = box[at]
    drawn[length + 1] = box[at + 1]
    drawn[length + 2] = box[at + 2]
    drawn[length + 3] = box[at + 3]
    length += 4
  }
  return mainOfBoxes(drawn.subarray(0, length))
}
