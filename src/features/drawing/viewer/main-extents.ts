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
  const flat = new Float64Array(boxes.length * 4)
  boxes.forEach((box, i) => {
    flat.set([box.minX, box.minY, box.maxX, box.maxY], i * 4)
  })
  return mainOfBoxes(flat)
}

/**
 * mainExtents of boxes given four numbers each (min x, min y, max x, max y), none empty: a
 * drawing's owners are kept so, and framing 200,000 of them makes no object per owner.
 */
export function mainOfBoxes(boxes: Float64Array): Extents | undefined {
  const count = boxes.length / 4
  const whole = union(boxes, () => true)
  if (!whole || count < FEW) return whole
  // The centres at the cuts are selected rather than sorted: for 200,000 entities a few
  // milliseconds, where sorting them took about 150.
  const xs = new Float64Array(count)
  const ys = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    xs[i] = (boxes[i * 4] + boxes[i * 4 + 2]) / 2
    ys[i] = (boxes[i * 4 + 1] + boxes[i * 4 + 3]) / 2
  }
  const low = Math.floor(count * TAIL)
  const high = count - 1 - low
  const core = { minX: nth(xs, low), minY: nth(ys, low), maxX: nth(xs, high), maxY: nth(ys, high) }
  const size = Math.max(core.maxX - core.minX, core.maxY - core.minY)
  if (!(size > 0)) return whole
  const inside = (at: number) =>
    boxes[at] >= core.minX - size &&
    boxes[at + 1] >= core.minY - size &&
    boxes[at + 2] <= core.maxX + size &&
    boxes[at + 3] <= core.maxY + size
  return union(boxes, inside) ?? whole
}

/** The union of the boxes (at their first number's index) that `take` takes. */
function union(boxes: Float64Array, take: (at: number) => boolean): Extents | undefined {
  let minX = Number.POSITIVE_INFINITY
  let minY = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  let maxY = Number.NEGATIVE_INFINITY
  let taken = false
  for (let at = 0; at < boxes.length; at += 4) {
    if (!take(at)) continue
    taken = true
    if (boxes[at] < minX) minX = boxes[at]
    if (boxes[at + 1] < minY) minY = boxes[at + 1]
    if (boxes[at + 2] > maxX) maxX = boxes[at + 2]
    if (boxes[at + 3] > maxY) maxY = boxes[at + 3]
  }
  return taken ? { minX, minY, maxX, maxY } : undefined
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
