import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DrawingEntity } from '../../model/drawing.ts'
import type { Shape } from '../../model/picture.ts'
import type { Point, Vertex } from '../../model/primitives.ts'
import { isMirroredOcs, mirroredShape } from '../mirrored.ts'
import type { DwgContext, Ptr } from './context.ts'

/** The struct fields of a filled outline (SOLID, TRACE): corners in the object coordinate system. */
type OutlineFields = { corners: readonly string[]; elevation: string; extrusion: string }
const SOLID: OutlineFields = {
  corners: ['SOLID.corner1', 'SOLID.corner2', 'SOLID.corner3', 'SOLID.corner4'],
  elevation: 'SOLID.elevation',
  extrusion: 'SOLID.extrusion',
}
const TRACE: OutlineFields = {
  corners: ['TRACE.corner1', 'TRACE.corner2', 'TRACE.corner3', 'TRACE.corner4'],
  elevation: 'TRACE.elevation',
  extrusion: 'TRACE.extrusion',
}
const FACE_CORNERS = ['3DFACE.corner1', '3DFACE.corner2', '3DFACE.corner3', '3DFACE.corner4']

/** Types whose shape starts from what the bill measured of them (the rest are read here). */
const FROM_MEASURED = new Set<number>([
  T.DWG_TYPE_ELLIPSE,
  T.DWG_TYPE_LWPOLYLINE,
  T.DWG_TYPE_POLYLINE_2D,
  T.DWG_TYPE_POLYLINE_3D,
  T.DWG_TYPE_SPLINE,
  T.DWG_TYPE_HELIX,
  T.DWG_TYPE_HATCH,
  T.DWG_TYPE_MLINE,
])

/**
 * The shapes of entities that hold geometry (block references are the picture reader's), in
 * world coordinates seen from above. Lines, arcs, circles and filled outlines are read from
 * memory here; the others start from what the bill measured of the entity (`measured`, shared,
 * never changed), with what the bill does not need (extrusion, fill) read here.
 */
export class ShapeReader {
  private readonly ctx: DwgContext

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  /** Whether the shape of an entity of this type is made from the bill's reading of it. */
  needsMeasured(type: number): boolean {
    return FROM_MEASURED.has(type)
  }

  /** The shape of an entity (`tio`: its struct), or null when it has none to draw. */
  read(tio: Ptr, type: number, measured: DrawingEntity | null): Shape | null {
    const { fields } = this.ctx
    switch (type) {
      case T.DWG_TYPE_LINE:
        return {
          kind: 'line',
          a: fields.point(tio, 'LINE.start'),
          b: fields.point(tio, 'LINE.end'),
        }
      case T.DWG_TYPE_ARC:
        return this.inOcs(tio, 'ARC.extrusion', {
          kind: 'arc',
          center: fields.point(tio, 'ARC.center'),
          radius: fields.f64(tio, 'ARC.radius'),
          start: fields.f64(tio, 'ARC.start_angle'),
          end: fields.f64(tio, 'ARC.end_angle'),
        })
      case T.DWG_TYPE_CIRCLE:
        return this.inOcs(tio, 'CIRCLE.extrusion', {
          kind: 'circle',
          center: fields.point(tio, 'CIRCLE.center'),
          radius: fields.f64(tio, 'CIRCLE.radius'),
        })
      case T.DWG_TYPE_SOLID:
        return this.outline(tio, SOLID)
      case T.DWG_TYPE_TRACE:
        return this.outline(tio, TRACE)
      case T.DWG_TYPE_3DFACE:
        return {
          kind: 'polyline',
          vertices: FACE_CORNERS.map((key) => ({ ...fields.point(tio, key), bulge: 0 })),
          closed: true,
        }
    }
    return measured ? this.fromMeasured(tio, type, measured) : null
  }

  private fromMeasured(tio: Ptr, type: number, entity: DrawingEntity): Shape | null {
    switch (entity.type) {
      case 'line':
      case 'arc':
      case 'circle':
        return null // read from memory above
      case 'ellipse': {
        const { center, major, ratio, start, end } = entity
        return this.inOcs(tio, 'ELLIPSE.extrusion', {
          kind: 'ellipse',
          center,
          major,
          ratio,
          start,
          end,
        })
      }
      case 'polyline': {
        const shape: Shape = { kind: 'polyline', vertices: entity.vertices, closed: entity.closed }
        if (entity.is3d) return shape
        const extrusion =
          type === T.DWG_TYPE_LWPOLYLINE ? 'LWPOLYLINE.extrusion' : 'POLYLINE_2D.extrusion'
        return this.inOcs(tio, extrusion, shape)
      }
      case 'spline':
      case 'helix': {
        const { degree, knots, control, weights, fit, startTangent, endTangent } = entity
        return {
          kind: 'spline',
          spline: { degree, knots, control, weights, fit, startTangent, endTangent },
        }
      }
      case 'hatch': {
        const { fields } = this.ctx
        const solid =
          fields.uint(tio, 'HATCH.is_solid_fill', 1) !== 0 ||
          fields.uint(tio, 'HATCH.is_gradient_fill', 4) !== 0
        return this.inOcs(tio, 'HATCH.extrusion', { kind: 'hatch', loops: entity.loops, solid })
      }
      case 'mline':
        return {
          kind: 'polyline',
          vertices: entity.vertices.map((p): Vertex => ({ x: p.x, y: p.y, z: p.z, bulge: 0 })),
          closed: entity.closed,
        }
    }
  }

  /** SOLID and TRACE: four 2D corners at the entity's elevation. */
  private outline(tio: Ptr, keys: OutlineFields): Shape {
    const { fields } = this.ctx
    const z = fields.f64(tio, keys.elevation)
    const corners = keys.corners.map(
      (key): Point => ({ x: fields.f64(tio, key, 0), y: fields.f64(tio, key, 1), z }),
    )
    return this.inOcs(tio, keys.extrusion, { kind: 'solid', corners })
  }

  /**
   * A shape as read from an entity with an extrusion (`extrusion`: its field), in world
   * coordinates seen from above.
   */
  inOcs(tio: Ptr, extrusion: string, shape: Shape): Shape {
    return this.mirrored(tio, extrusion) ? mirroredShape(shape) : shape
  }

  /** Whether the entity's extrusion (`key`: its field) is −Z. */
  private mirrored(tio: Ptr, key: string): boolean {
    const { fields } = this.ctx
    return isMirroredOcs(fields.f64(tio, key, 0), fields.f64(tio, key, 1), fields.f64(tio, key, 2))
  }
}
