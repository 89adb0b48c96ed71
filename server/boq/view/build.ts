import type { DrawingGeometry } from '#contract/drawing-geometry.ts'
import type { Picture, PictureColour, PictureEntity, Shape } from '../model/picture.ts'
import { drawingSize } from './extents.ts'
import { drawShape, type ShapeCache } from './shapes.ts'
import { GeometrySink } from './sink.ts'
import { toleranceFor } from './tessellate.ts'
import {
  type Affine,
  compose,
  gridSize,
  IDENTITY,
  mapVector,
  moved,
  placementOf,
} from './transform.ts'

/**
 * The most numbers the geometry holds (all its arrays together), 80 MB as float32: 12 times what
 * the bench's 200,000 entities take (1.6 million), so in practice only block references multiplied
 * out reach it; past it the download and the browser's buffers would take far longer than the
 * drawing view is meant to. Also the most entities and copies drawn out of blocks, so that a
 * huge grid of an empty block ends too.
 */
export const GEOMETRY_NUMBER_LIMIT = 20_000_000

const WHITE = 0xffffff

/** The reference a block's contents are drawn for: its layer and colour, resolved. */
type Reference = { layer: string; rgb: number }

type InsertShape = Extract<Shape, { kind: 'insert' }>

/**
 * Flattens the picture a reader reported into the geometry the drawing view draws: every
 * model-space entity's handle, and what each draws (block references drawn out, owned by the
 * model-space reference) with its colour. Curves are flattened to half a pixel of a 2000 px view
 * of the whole drawing zoomed in 10×; circles and arcs stay arcs where they can.
 */
export function buildGeometry(
  picture: Picture,
  options: { limit?: number } = {},
): { geometry: DrawingGeometry; warnings: string[] } {
  const builder = new Builder(picture, options.limit ?? GEOMETRY_NUMBER_LIMIT)
  const handles: string[] = new Array(picture.modelSpace.length)
  picture.modelSpace.forEach((entity, owner) => {
    handles[owner] = entity.handle
    builder.draw(entity, owner, IDENTITY, null)
  })
  return { geometry: builder.sink.finish(handles), warnings: builder.warnings }
}

class Builder {
  readonly sink = new GeometrySink()
  readonly warnings: string[] = []
  private readonly picture: Picture
  private readonly limit: number
  private readonly tolerance: number
  private readonly cache: ShapeCache = new WeakMap()
  private readonly layerColourIndexes = new Map<string, number>()
  /** Blocks being drawn out, to cut one that contains itself. */
  private readonly open = new Set<string>()
  private readonly cutBlocks = new Set<string>()
  private visits = 0
  private stopped = false

  constructor(picture: Picture, limit: number) {
    this.picture = picture
    this.limit = limit
    this.tolerance = toleranceFor(drawingSize(picture))
  }

  draw(entity: PictureEntity, owner: number, m: Affine, reference: Reference | null): void {
    const { shape } = entity
    if (shape === null || this.stopped) return
    // Inside a block, what sits on layer 0 takes the reference's layer.
    const layer = reference !== null && entity.layer === '0' ? reference.layer : entity.layer
    if (this.picture.hiddenLayers.has(layer)) return
    if (shape.kind === 'insert') {
      const rgb = this.rgbOf(entity.colour, layer, reference)
      this.drawInsert(shape, owner, m, { layer, rgb })
      return
    }
    if (++this.visits > this.limit || this.sink.storedNumbers > this.limit) {
      this.stop()
      return
    }
    const colour =
      entity.colour === 'bylayer'
        ? this.layerColourIndex(layer)
        : this.sink.colourIndex(this.rgbOf(entity.colour, layer, reference))
    drawShape(this.sink, shape, { owner, colour, m, tolerance: this.tolerance }, this.cache)
  }

  private drawInsert(insert: InsertShape, owner: number, m: Affine, reference: Reference): void {
    const name = insert.definition
    const block = this.picture.blocks.get(name)
    if (!block) return
    if (this.open.has(name)) {
      if (!this.cutBlocks.has(name)) {
        this.cutBlocks.add(name)
        this.warnings.push(
          `Block "${name}" contains itself: the drawing view draws it once, without the reference to itself.`,
        )
      }
      return
    }
    this.open.add(name)
    const columns = gridSize(insert.columns)
    const rows = gridSize(insert.rows)
    const { first, column, row } = placementOf(insert, block.base)
    const placedFirst = compose(m, first)
    const [columnX, columnY] = mapVector(m, column)
    const [rowX, rowY] = mapVector(m, row)
    for (let j = 0; j < rows && !this.stopped; j++) {
      for (let i = 0; i < columns && !this.stopped; i++) {
        // Each copy counts, however little it draws: a huge grid of an empty block ends too.
        if (++this.visits > this.limit) this.stop()
        const placed = moved(placedFirst, i * columnX + j * rowX, i * columnY + j * rowY)
        for (const entity of block.entities) this.draw(entity, owner, placed, reference)
      }
    }
    this.open.delete(name)
  }

  private rgbOf(colour: PictureColour, layer: string, reference: Reference | null): number {
    if (colour === 'bylayer') return this.picture.layerColours.get(layer) ?? WHITE
    if (colour === 'byblock') return reference?.rgb ?? WHITE
    return colour
  }

  private layerColourIndex(layer: string): number {
    let index = this.layerColourIndexes.get(layer)
    if (index === undefined) {
      index = this.sink.colourIndex(this.picture.layerColours.get(layer) ?? WHITE)
      this.layerColourIndexes.set(layer, index)
    }
    return index
  }

  private stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.warnings.push(
      `The drawing view shows only part of this drawing: drawn out, its block references come to more than ${this.limit.toLocaleString('en')} numbers of geometry, more than a browser takes in quickly.`,
    )
  }
}
