import type { EllipseGeometry, Loop, Point, SplineGeometry, Vertex } from './primitives.ts'

/**
 * What the drawing view draws, as the readers find it: every model-space entity with its shape,
 * layer and colour, and the contents of the block definitions references place. Angles are
 * radians, counter-clockwise; everything is in world coordinates seen from above (an entity
 * mirrored by its extrusion direction is given mirrored). view/ flattens it for the
 * browser. Text, dimensions' text and images are left out.
 */
export type Picture = {
  /** Layers' colours (0xRRGGBB) by name; a layer not listed is drawn white. */
  layerColours: Map<string, number>
  /** Layers that are off or frozen: what sits on them is not drawn (its handle is still known). */
  hiddenLayers: Set<string>
  /** Model-space entities in drawing order, every one (a shape null: nothing to draw). */
  modelSpace: PictureEntity[]
  /** Block definitions by their record name (InsertRef.definition). */
  blocks: Map<string, PictureBlock>
}

export type PictureBlock = { base: Point; entities: PictureEntity[] }

/** An entity's own colour (0xRRGGBB), or its layer's, or the colour of the reference it is in. */
export type PictureColour = number | 'bylayer' | 'byblock'

export type PictureEntity = {
  handle: string
  layer: string
  colour: PictureColour
  shape: Shape | null
}

export type Shape =
  | { kind: 'line'; a: Point; b: Point }
  | { kind: 'circle'; center: Point; radius: number }
  | { kind: 'arc'; center: Point; radius: number; start: number; end: number }
  | ({ kind: 'ellipse' } & EllipseGeometry)
  | { kind: 'polyline'; vertices: Vertex[]; closed: boolean }
  | { kind: 'spline'; spline: SplineGeometry }
  /** A hatch: its boundary drawn, and filled when `solid` (a solid fill or a gradient). */
  | { kind: 'hatch'; loops: Loop[]; solid: boolean }
  /** SOLID and TRACE: a filled triangle or quadrilateral, corners in DXF order (1 2 4 3). */
  | { kind: 'solid'; corners: Point[] }
  /** A block reference (INSERT, MINSERT; also a dimension's or a table's graphics block). */
  | {
      kind: 'insert'
      definition: string
      position: Point
      scale: Point
      rotation: number
      /** MINSERT: columns × rows, spaced as given (1 × 1 for an INSERT). */
      columns: number
      rows: number
      columnSpacing: number
      rowSpacing: number
    }

/**
 * A graphics block drawn where it is, its contents being in world coordinates already (a
 * dimension's): placed once at the origin, unscaled and unturned.
 */
export function placedAtOrigin(definition: string): Shape {
  return {
    kind: 'insert',
    definition,
    position: { x: 0, y: 0, z: 0 },
    scale: { x: 1, y: 1, z: 1 },
    rotation: 0,
    columns: 1,
    rows: 1,
    columnSpacing: 0,
    rowSpacing: 0,
  }
}
