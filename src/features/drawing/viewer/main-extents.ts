/** An axis-aligned box in drawing units. */
export type Extents = { minX: number; minY: number; maxX: number; maxY: number }

/** Below this many entities, every one counts: too few to tell an outlier. */
const FEW = 20
/** The share of entity centres cut at each end of an axis to find where most entities are. */
const TAIL = 0.02

/**
 * The box that frames a drawing: the extents of its entities but of those far from where most of
 * them are, such as one huge block, or a stray point a long way off, which would leave the rest a
 * speck. Where most are: the middle 96% of the entities' centres on each axis; far: reaching more
 * than that box's size beyond it. Undefined for no entities.
 */
export function mainExtents(boxes: readonly Extents[]): Extents | undefined {
  const whole = union(boxes)
  if (!whole || boxes.length < FEW) return whole
  // The centres at the cuts are selected rather than sorted: for 200,000 entities a few
  // milliseconds, where sorting them took about 150.
  const xs = Float64Array.from(boxes, (box) => (box.minX + box.maxX) / 2)
  const ys = Float64Array.from(boxes, (box) => (box.minY + box.maxY) / 2)
  const low = Math.floor(boxes.length * TAIL)
  const high = boxes.length - 1 - low
  const core = { minX: nth(xs, low), minY: nth(ys, low), maxX: nth(xs, high), maxY: nth(ys, high) }
  const size = Math.max(core.maxX - core.minX, core.maxY - core.minY)
  if (!(size > 0)) return whole
  const inside = (box: Extents) =>
    box.minX >= core.minX - size &&
    box.minY >= core.minY - size &&
    box.maxX <= core.maxX + size &&
    box.maxY <= core.maxY + size
  return union(boxes.filter(inside)) ?? whole
}

function union(boxes: readonly Extents[]): Extents | undefined {
  if (boxes.length === 0) return undefined
  let minX = Number.POSITIVE_INFINITY
  let minY = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  let maxY = Number.NEGATIVE_INFINITY
  for (const box of boxes) {
    minX = Math.min(minX, box.minX)
    minY = Math.min(minY, box.minY)
    maxX = Math.max(maxX, box.maxX)
    maxY = Math.max(maxY, box.maxY)
  }
  return { minX, minY, maxX, maxY }
}

/**
 * The value that would be at `k` were `values` sorted (they are reordered): quickselect, with
 * Hoare's partition, which keeps runs of equal values (a drawing's grid) from going quadratic.
 */
export function nth(values: Float64Array, k: number): number {
  let left = 0
  let right = values.length - 1
  while (left < right) {
    const pivot = values[(left + right) >>> 1]
    let i = left
    let j = right
    while (i <= j) {
      while (values[i] < pivot) i++
      while (values[j] > pivot) j--
      if (i <= j) {
        const swap = values[i]
        values[i] = values[j]
        values[j] = swap
        i++
        j--
      }
    }
    if (k <= j) right = j
    else if (k >= i) left = i
    else return values[k]
  }
  return values[k]
}

/**
 * The box, or for a point or a line along an axis (nothing to zoom onto), a box around its middle
 * a fiftieth of the drawing's size.
 */
export function withSomeSize(box: Extents, drawing: Extents | undefined): Extents {
  if (box.maxX > box.minX && box.maxY > box.minY) return box
  const whole = drawing ? Math.max(drawing.maxX - drawing.minX, drawing.maxY - drawing.minY) : 1
  const margin = (whole || 1) / 50
  return {
    minX: box.minX - margin,
    minY: box.minY - margin,
    maxX: box.maxX + margin,
    maxY: box.maxY + margin,
  }
}
