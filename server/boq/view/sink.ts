import { arcBounds, type DrawingGeometry } from '#contract/drawing-geometry.ts'
import { Float64Growable, Uint32Growable } from './growable.ts'

/**
 * Collects what is drawn, in drawing coordinates (float64), and hands it over as DrawingGeometry
 * around the centre of its extents (float32 is exact enough only near zero).
 */
export class GeometrySink {
  private points = new Float64Growable()
  private pathStarts = new Uint32Growable()
  private pathOwners = new Uint32Growable()
  private pathColours = new Uint32Growable()
  private arcs = new Float64Growable()
  private arcOwners = new Uint32Growable()
  private arcColours = new Uint32Growable()
  private triangles = new Float64Growable()
  private triangleOwners = new Uint32Growable()
  private triangleColours = new Uint32Growable()
  private pathFrom = 0
  private pathBroken = false
  private colourIndexes = new Map<number, number>()
  private colours: number[] = []

  /** Numbers the geometry holds so far, every array counted. */
  get storedNumbers(): number {
    return (
      this.points.length +
      3 * this.pathOwners.length +
      1 +
      (this.arcs.length / 5) * 7 +
      (this.triangles.length / 6) * 8
    )
  }

  /** The index of a colour (0xRRGGBB) in the geometry's colours, each colour once. */
  colourIndex(rgb: number): number {
    let index = this.colourIndexes.get(rgb)
    if (index === undefined) {
      index = this.colours.length
      this.colours.push(rgb)
      this.colourIndexes.set(rgb, index)
    }
    return index
  }

  beginPath(): void {
    this.pathFrom = this.points.length
    this.pathBroken = false
  }

  point(x: number, y: number): void {
    // x − x is NaN for NaN and ±Infinity: such a path is dropped when it ends.
    if (x - x !== 0 || y - y !== 0) this.pathBroken = true
    this.points.push2(x, y)
  }

  /** Keeps the path begun last, unless it has fewer than two points or a number that is not finite. */
  endPath(owner: number, colour: number): void {
    if (this.pathBroken || this.points.length - this.pathFrom < 4) {
      this.points.length = this.pathFrom
      return
    }
    this.pathStarts.push(this.pathFrom / 2)
    this.pathOwners.push(owner)
    this.pathColours.push(colour)
  }

  arc(
    owner: number,
    colour: number,
    cx: number,
    cy: number,
    radius: number,
    start: number,
    sweep: number,
  ): void {
    if (!(radius > 0) || !Number.isFinite(cx + cy + radius + start + sweep)) return
    this.arcs.push2(cx, cy)
    this.arcs.push(radius)
    this.arcs.push2(start, sweep)
    this.arcOwners.push(owner)
    this.arcColours.push(colour)
  }

  triangle(
    owner: number,
    colour: number,
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    x3: number,
    y3: number,
  ): void {
    if (!Number.isFinite(x1 + y1 + x2 + y2 + x3 + y3)) return
    this.triangles.push2(x1, y1)
    this.triangles.push2(x2, y2)
    this.triangles.push2(x3, y3)
    this.triangleOwners.push(owner)
    this.triangleColours.push(colour)
  }

  finish(handles: string[]): DrawingGeometry {
    const box = new Extents()
    const points = this.points.array
    for (let i = 0; i < this.points.length; i += 2) box.add(points[i], points[i + 1])
    const arcs = this.arcs.array
    for (let i = 0; i < this.arcs.length; i += 5) {
      addArc(box, arcs[i], arcs[i + 1], arcs[i + 2], arcs[i + 3], arcs[i + 4])
    }
    const triangles = this.triangles.array
    for (let i = 0; i < this.triangles.length; i += 2) box.add(triangles[i], triangles[i + 1])

    const empty = box.minX > box.maxX
    const ox = empty ? 0 : (box.minX + box.maxX) / 2
    const oy = empty ? 0 : (box.minY + box.maxY) / 2
    const storedArcs = new Float32Array(this.arcs.length)
    for (let i = 0; i < storedArcs.length; i += 5) {
      storedArcs[i] = arcs[i] - ox
      storedArcs[i + 1] = arcs[i + 1] - oy
      storedArcs[i + 2] = arcs[i + 2]
      storedArcs[i + 3] = arcs[i + 3]
      storedArcs[i + 4] = arcs[i + 4]
    }
    this.pathStarts.push(this.points.length / 2)
    return {
      origin: [ox, oy],
      bounds: empty ? [0, 0, 0, 0] : [box.minX - ox, box.minY - oy, box.maxX - ox, box.maxY - oy],
      handles,
      colours: this.colours,
      points: relative(points, this.points.length, ox, oy),
      pathStarts: this.pathStarts.toArray(),
      pathOwners: this.pathOwners.toArray(),
      pathColours: this.pathColours.toArray(),
      arcs: storedArcs,
      arcOwners: this.arcOwners.toArray(),
      arcColours: this.arcColours.toArray(),
      triangles: relative(triangles, this.triangles.length, ox, oy),
      triangleOwners: this.triangleOwners.toArray(),
      triangleColours: this.triangleColours.toArray(),
    }
  }
}

function relative(xy: Float64Array, length: number, ox: number, oy: number): Float32Array {
  const out = new Float32Array(length)
  for (let i = 0; i < length; i += 2) {
    out[i] = xy[i] - ox
    out[i + 1] = xy[i + 1] - oy
  }
  return out
}

export class Extents {
  minX = Number.POSITIVE_INFINITY
  minY = Number.POSITIVE_INFINITY
  maxX = Number.NEGATIVE_INFINITY
  maxY = Number.NEGATIVE_INFINITY

  add(x: number, y: number): void {
    if (x < this.minX) this.minX = x
    if (x > this.maxX) this.maxX = x
    if (y < this.minY) this.minY = y
    if (y > this.maxY) this.maxY = y
  }
}

/** Adds an arc's bounds (sweep counter-clockwise) to the box. */
export function addArc(
  box: Extents,
  cx: number,
  cy: number,
  r: number,
  start: number,
  sweep: number,
): void {
  arcBounds(cx, cy, r, start, sweep, (x, y) => box.add(x, y))
}
