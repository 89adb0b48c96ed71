import type { DrawingEntity } from '../../model/drawing.ts'
import type { PictureEntity, Shape } from '../../model/picture.ts'
import type { SplineGeometry } from '../../model/primitives.ts'
import { aciColour, entityColour } from '../colours.ts'
import type { DrawingBuilder } from '../drawing-builder.ts'
import { type DxfEntity, handleOf, helixFromPairs, pt } from './geometry.ts'
import { type Pair, type ScannedEntity, SUBENTITIES } from './scan.ts'
import { shapeOf, splineShape, traceShape } from './shapes.ts'

/** dxf-json's LAYER table entry, as far as the picture looks at it. */
export type DxfLayer = { name?: string; standardFlag?: number; colorIndex?: number }

/** The block definitions the picture's references place. */
export type PictureBlocks = {
  /** A definition by the name a reference gives, with its base point and entities. */
  block(name: string): { position?: unknown; entities?: DxfEntity[] } | undefined
  /** Whether the definition is an attached drawing, whose content is not in this file. */
  isXref(name: string): boolean
}

/** LAYER flag 1: frozen. */
const FROZEN = 1

/**
 * Reports the drawing as the drawing view draws it: layers' colours, every model-space entity
 * with its shape, and, once each, the contents of the definitions its references place (nested
 * ones too, followed without recursion, so a block containing itself ends the walk).
 */
export class DxfPicture {
  private readonly builder: DrawingBuilder
  private readonly blocks: PictureBlocks
  /** Definitions a reported reference places, in the order first met; each reported once. */
  private readonly placed: string[] = []
  /** Definitions met so far, and whether each is an attached drawing. */
  private readonly xrefs = new Map<string, boolean>()

  constructor(builder: DrawingBuilder, blocks: PictureBlocks) {
    this.builder = builder
    this.blocks = blocks
  }

  /** Layers' colours: a negative colour index is a layer turned off; a true colour wins. */
  layers(layers: DxfLayer[], trueColours: Map<string, number>): void {
    for (const layer of layers) {
      const name = String(layer.name ?? '')
      if (!name) continue
      const index = typeof layer.colorIndex === 'number' ? layer.colorIndex : 7
      const frozen = ((layer.standardFlag ?? 0) & FROZEN) !== 0
      this.builder.layer(
        name,
        trueColours.get(name) ?? aciColour(Math.abs(index)),
        index < 0 || frozen,
      )
    }
  }

  /**
   * A model-space entity dxf-json read; its handle, layer and colour are the scan's when it saw it
   * (the same values, far quicker to read: no two of dxf-json's entities share a hidden class).
   */
  modelSpace(e: DxfEntity, scanned: ScannedEntity | null, measured: DrawingEntity | null): void {
    const { type } = e
    const drawn = scanned ? scannedEntity(scanned, this.shape(e, type)) : this.entity(e, type)
    this.builder.drawn(drawn, measured)
  }

  /** A model-space entity dxf-json left out: all it is comes from the scan. */
  unparsed(scanned: ScannedEntity, measured: DrawingEntity | null): void {
    const { handle, pairs } = scanned
    let shape: Shape | null = null
    if (scanned.type === 'HELIX' && pairs) shape = splineShape(helixSpline(pairs, handle))
    else if (scanned.type === 'TRACE' && pairs) shape = traceShape(pairs)
    this.builder.drawn(scannedEntity(scanned, shape), measured)
  }

  /** The contents of every definition placed so far, and of those they place in turn. */
  finish(): void {
    for (let i = 0; i < this.placed.length; i++) {
      const name = this.placed[i]
      const block = this.blocks.block(name)
      if (!block) continue
      const entities: PictureEntity[] = []
      for (const e of block.entities ?? []) {
        const { type } = e
        if (!SUBENTITIES.has(type)) entities.push(this.entity(e, type))
      }
      this.builder.blockContents(name, pt(block.position), entities)
    }
  }

  private entity(e: DxfEntity, type: string): PictureEntity {
    const index = e.colorIndex
    // ACAD_TABLE's reader fills `color` from the index itself: only the index is its own.
    const trueColour = type === 'ACAD_TABLE' ? undefined : e.color
    return {
      handle: handleOf(e),
      layer: String(e.layer ?? '0'),
      colour: entityColour(
        typeof index === 'number' ? index : undefined,
        typeof trueColour === 'number' ? trueColour : undefined,
      ),
      shape: this.shape(e, type),
    }
  }

  private shape(e: DxfEntity, type: string): Shape | null {
    const shape = shapeOf(e, type)
    if (shape?.kind !== 'insert') return shape
    const { definition } = shape
    let xref = this.xrefs.get(definition)
    if (xref === undefined) {
      xref = this.blocks.isXref(definition)
      this.xrefs.set(definition, xref)
      if (!xref) this.placed.push(definition)
    }
    // An attached drawing's content is not in this file: nothing to draw.
    return xref ? null : shape
  }
}

function scannedEntity(scanned: ScannedEntity, shape: Shape | null): PictureEntity {
  return {
    handle: scanned.handle,
    layer: scanned.layer || '0',
    colour: entityColour(scanned.colorIndex, scanned.trueColour),
    shape,
  }
}

/** A helix's path: the spline of its AcDbSpline part. */
function helixSpline(pairs: Pair[], handle: string): SplineGeometry {
  const { degree, knots, control, weights, fit, startTangent, endTangent } = helixFromPairs(
    pairs,
    handle,
  )
  return { degree, knots, control, weights, fit, startTangent, endTangent }
}
