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
  const xs = boxes.map((box) => (box.minX + box.maxX) / 2).sort((a, b) => a - b)
  const ys = boxes.map((box) => (box.minY + box.maxY) / 2).sort((a, b) => a - b)
  const low = Math.floor(boxes.length * TAIL)
  const high = boxes.length - 1 - low
  const core = { minX: xs[low], minY: ys[low], maxX: xs[high], maxY: ys[high] } as Extents
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
