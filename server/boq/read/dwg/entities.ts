import { type Dwg_HATCH_Path, Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DrawingEntity, PlacedText } from '../../model/drawing.ts'
import type { Loop, LoopEdge, Point, Vertex } from '../../model/primitives.ts'
import { plainText } from '../plain-text.ts'
import { type DwgContext, nameOf, type Ptr } from './context.ts'
import { helixParameters } from './helix.ts'
import type { Layers } from './layers.ts'
import type { ObjectLayout } from './objects.ts'
import type { R11Tables } from './r11.ts'

/** LibreDWG's MLINE vertex struct: its size and where the point sits in it. */
const MLINE_VERTEX = 'MLINE_vertex'
/** MLINE flags: 2 = closed (DXF group 71). */
const MLINE_CLOSED = 2

/** The geometry of measurable entities, read field by field (no convert() of the drawing). */
export class EntityReader {
  private readonly ctx: DwgContext
  private readonly layers: Layers
  private readonly objects: ObjectLayout
  private readonly r11: R11Tables | null
  private readonly styleNames = new Map<Ptr, string>()
  private mlineVertex: { size: number; point: number } | null = null

  constructor(ctx: DwgContext, layers: Layers, objects: ObjectLayout, r11: R11Tables | null) {
    this.ctx = ctx
    this.layers = layers
    this.objects = objects
    this.r11 = r11
  }

  /** The entity's geometry, or null when its type is not measured. */
  read(obj: Ptr, type: number): DrawingEntity | null {
    const tio = this.ctx.wasm.dwg_object_to_entity_tio(obj)
    if (!tio) return null
    switch (type) {
      case T.DWG_TYPE_LINE:
        return {
          type: 'line',
          ...this.placed(obj, tio),
          a: this.point(tio, 'LINE.start'),
          b: this.point(tio, 'LINE.end'),
        }
      case T.DWG_TYPE_ARC:
        return {
          type: 'arc',
          ...this.placed(obj, tio),
          radius: this.f64(tio, 'ARC.radius'),
          start: this.f64(tio, 'ARC.start_angle'),
          end: this.f64(tio, 'ARC.end_angle'),
        }
      case T.DWG_TYPE_CIRCLE:
        return {
          type: 'circle',
          ...this.placed(obj, tio),
          center: this.point(tio, 'CIRCLE.center'),
          radius: this.f64(tio, 'CIRCLE.radius'),
        }
      case T.DWG_TYPE_ELLIPSE:
        return {
          type: 'ellipse',
          ...this.placed(obj, tio),
          center: this.point(tio, 'ELLIPSE.center'),
          major: this.point(tio, 'ELLIPSE.sm_axis'),
          ratio: this.f64(tio, 'ELLIPSE.axis_ratio'),
          start: this.f64(tio, 'ELLIPSE.start_angle'),
          end: this.f64(tio, 'ELLIPSE.end_angle'),
        }
      case T.DWG_TYPE_LWPOLYLINE:
        return this.lwpolyline(obj, tio)
      case T.DWG_TYPE_POLYLINE_2D:
      case T.DWG_TYPE_POLYLINE_3D:
        return this.heavyPolyline(obj, tio, type === T.DWG_TYPE_POLYLINE_3D)
      case T.DWG_TYPE_SPLINE:
        return this.spline(obj, tio, 'spline')
      case T.DWG_TYPE_HELIX:
        return this.spline(obj, tio, 'helix')
      case T.DWG_TYPE_HATCH:
        return this.hatch(obj, tio)
      case T.DWG_TYPE_MLINE:
        return this.mline(obj, tio)
      default:
        return null
    }
  }

  /**
   * A TEXT's or MTEXT's words and where it stands (an aligned TEXT at its alignment point, as
   * AutoCAD places it); null for no words.
   */
  text(obj: Ptr, type: number): PlacedText | null {
    const tio = this.ctx.wasm.dwg_object_to_entity_tio(obj)
    if (!tio) return null
    const mtext = type === T.DWG_TYPE_MTEXT
    const words = plainText(String(this.value<string>(tio, mtext ? 'text' : 'text_value') ?? ''))
    if (!words) return null
    const aligned =
      !mtext &&
      (Number(this.value<number>(tio, 'horiz_alignment') ?? 0) !== 0 ||
        Number(this.value<number>(tio, 'vert_alignment') ?? 0) !== 0)
    const at = this.value<{ x?: number; y?: number }>(tio, aligned ? 'alignment_pt' : 'ins_pt')
    const x = Number(at?.x)
    const y = Number(at?.y)
    if (!Number.isFinite(x) || !Number.isFinite(y)) return null
    return { ...this.placed(obj, tio), text: words, x, y }
  }

  private placed(obj: Ptr, tio: Ptr): { layer: string; handle: string } {
    return { layer: this.layers.nameOf(obj, tio), handle: this.objects.handle(obj) }
  }

  /** `key` is 'TYPE.field' (a constant: the offset cache is keyed by it). */
  private f64(tio: Ptr, key: string, index = 0): number {
    return this.ctx.fields.f64(tio, key, index)
  }

  private point(tio: Ptr, key: string): Point {
    const { fields } = this.ctx
    return { x: fields.f64(tio, key, 0), y: fields.f64(tio, key, 1), z: fields.f64(tio, key, 2) }
  }

  private value<V>(tio: Ptr, field: string): V {
    return this.ctx.lib.dwg_dynapi_entity_data<V>(tio, field)
  }

  private lwpolyline(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib, fields } = this.ctx
    // Points (2 doubles each) and bulges straight from memory: no JS object per point on the way.
    const points = fields.uint(tio, 'LWPOLYLINE.points', 4)
    const count = points ? fields.uint(tio, 'LWPOLYLINE.num_points', 4) : 0
    const bulges = fields.uint(tio, 'LWPOLYLINE.bulges', 4)
    const bulgeCount = bulges ? fields.uint(tio, 'LWPOLYLINE.num_bulges', 4) : 0
    const flag = fields.uint(tio, 'LWPOLYLINE.flag', 2)
    const elevation = this.f64(tio, 'LWPOLYLINE.elevation')
    const xy = fields.f64Array(points, count * 2)
    const bulge = fields.f64Array(bulges, bulgeCount)
    const vertices: Vertex[] = new Array(count)
    for (let i = 0; i < count; i++) {
      vertices[i] = { x: xy[2 * i], y: xy[2 * i + 1], z: elevation, bulge: bulge[i] ?? 0 }
    }
    if (fields.verifying) {
      const expected = lib.dwg_ptr_to_point2d_array(points, count)
      const expectedBulges = bulgeCount ? lib.dwg_ptr_to_double_array(bulges, bulgeCount) : []
      vertices.forEach((v, i) => {
        if (v.x !== expected[i].x || v.y !== expected[i].y || v.bulge !== (expectedBulges[i] ?? 0))
          throw new Error(`LWPOLYLINE vertex ${i}: memory and getter differ`)
      })
    }
    // DWG's LWPOLYLINE flag: 512 = closed.
    return {
      type: 'polyline',
      ...this.placed(obj, tio),
      vertices,
      closed: (flag & 512) !== 0,
      is3d: false,
    }
  }

  /**
   * Heavy (2D/3D) polylines: vertices come from the owned sub-entity walk, which keeps the last
   * vertex that the binding's own getters drop in R13–R2000 files; R11 has no such links, its
   * vertices follow the polyline.
   */
  private heavyPolyline(obj: Ptr, tio: Ptr, is3d: boolean): DrawingEntity {
    const { fields } = this.ctx
    const [flagKey, pointKey] = is3d
      ? ['VERTEX_3D.flag', 'VERTEX_3D.point']
      : ['VERTEX_2D.flag', 'VERTEX_2D.point']
    const vertices: Vertex[] = []
    for (const sub of this.vertexObjects(obj)) {
      const vtio = this.ctx.wasm.dwg_object_to_entity_tio(sub)
      const vflag = fields.uint(vtio, flagKey, 1)
      // Spline/curve-fit frame control points (16) are not on the curve.
      if (!(vflag & 16)) {
        vertices.push({
          x: fields.f64(vtio, pointKey, 0),
          y: fields.f64(vtio, pointKey, 1),
          z: fields.f64(vtio, pointKey, 2),
          bulge: is3d ? 0 : fields.f64(vtio, 'VERTEX_2D.bulge'),
        })
      }
    }
    // POLYLINE_2D's flag is a short, POLYLINE_3D's a byte.
    const flag = is3d
      ? fields.uint(tio, 'POLYLINE_3D.flag', 1)
      : fields.uint(tio, 'POLYLINE_2D.flag', 2)
    return {
      type: 'polyline',
      ...this.placed(obj, tio),
      vertices,
      closed: (flag & 1) !== 0,
      is3d,
    }
  }

  private vertexObjects(polyline: Ptr): Ptr[] {
    const { wasm } = this.ctx
    const out: Ptr[] = []
    let sub = wasm.get_first_owned_subentity(polyline)
    while (sub && out.length < 10_000_000) {
      out.push(sub)
      sub = wasm.get_next_owned_subentity(polyline, sub)
    }
    if (out.length === 0 && this.r11) return this.r11.vertices(polyline)
    return out
  }

  /** A spline, or a helix (LibreDWG keeps a helix's path in the spline's fields). */
  private spline(obj: Ptr, tio: Ptr, type: 'spline' | 'helix'): DrawingEntity {
    const { lib } = this.ctx
    const degree = this.value<number>(tio, 'degree') || 0
    const knotCount = this.value<number>(tio, 'num_knots') || 0
    const ctrlCount = this.value<number>(tio, 'num_ctrl_pts') || 0
    const fitCount = this.value<number>(tio, 'num_fit_pts') || 0
    const knots = knotCount
      ? lib.dwg_ptr_to_double_array(this.value<Ptr>(tio, 'knots'), knotCount)
      : []
    const ctrl = ctrlCount
      ? lib.dwg_ptr_to_point4d_array(this.value<Ptr>(tio, 'ctrl_pts'), ctrlCount)
      : []
    const fit = fitCount
      ? lib.dwg_ptr_to_point3d_array(this.value<Ptr>(tio, 'fit_pts'), fitCount)
      : []
    const weighted = Boolean(this.value<number>(tio, 'weighted'))
    return {
      type,
      ...this.placed(obj, tio),
      degree,
      knots,
      control: ctrl.map((p) => ({ x: p.x, y: p.y, z: p.z })),
      weights: weighted ? ctrl.map((p) => p.w) : [],
      fit: fit.map((p) => ({ x: p.x, y: p.y, z: p.z ?? 0 })),
      startTangent: fitCount ? this.tangent(tio, type, 'start') : null,
      endTangent: fitCount ? this.tangent(tio, type, 'end') : null,
      fitTolerance: fitCount ? this.value<number>(tio, 'fit_tol') || 0 : 0,
      ...(type === 'helix' ? helixParameters(lib, tio) : {}),
    }
  }

  /** A spline's end tangent from memory; a helix's (rare) through the dynapi, by its own name. */
  private tangent(tio: Ptr, type: 'spline' | 'helix', end: 'start' | 'end'): Point | null {
    if (type === 'spline')
      return this.point(tio, end === 'start' ? 'SPLINE.beg_tan_vec' : 'SPLINE.end_tan_vec')
    const value = this.value<Point | undefined>(
      tio,
      end === 'start' ? 'beg_tan_vec' : 'end_tan_vec',
    )
    return value ? { x: value.x, y: value.y, z: value.z ?? 0 } : null
  }

  private hatch(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib } = this.ctx
    const count = this.value<number>(tio, 'num_paths') || 0
    const paths: Dwg_HATCH_Path[] = count
      ? lib.dwg_ptr_to_hatch_path_array(this.value<Ptr>(tio, 'paths'), count)
      : []
    const loops: Loop[] = []
    for (const path of paths) {
      if (!path.num_segs_or_paths) continue
      if (path.flag & 2) {
        loops.push({
          kind: 'polyline',
          vertices: path.polyline_paths.map((v) => ({
            x: v.point.x,
            y: v.point.y,
            z: 0,
            bulge: v.bulge || 0,
          })),
        })
        continue
      }
      const edges: LoopEdge[] = []
      for (const seg of path.segs) {
        const edge = hatchEdge(seg)
        if (edge) edges.push(edge)
      }
      if (edges.length) loops.push({ kind: 'edges', edges })
    }
    return {
      type: 'hatch',
      ...this.placed(obj, tio),
      loops,
      style: this.value<number>(tio, 'style') || 0,
    }
  }

  /** A multiline, measured along its vertices (its lines are offsets of that path). */
  private mline(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib, fields, heap } = this.ctx
    const verts = fields.uint(tio, 'MLINE.verts', 4)
    const count = verts ? fields.uint(tio, 'MLINE.num_verts', 2) : 0
    const layout = this.mlineVertexLayout()
    const vertices: Point[] = []
    if (heap.has(verts, count * layout.size)) {
      for (let i = 0; i < count; i++) {
        const at = verts + i * layout.size + layout.point
        vertices.push({ x: heap.f64(at), y: heap.f64(at + 8), z: heap.f64(at + 16) })
      }
    }
    if (fields.verifying && count) {
      const expected = lib.dwg_ptr_to_mline_vertex_array(verts, count)
      vertices.forEach((v, i) => {
        const e = expected[i].vertex
        if (v.x !== e.x || v.y !== e.y || v.z !== e.z)
          throw new Error(`MLINE vertex ${i}: memory and getter differ`)
      })
    }
    const style = fields.uint(tio, 'MLINE.mlinestyle', 4)
    return {
      type: 'mline',
      ...this.placed(obj, tio),
      vertices,
      closed: (fields.uint(tio, 'MLINE.flags', 1) & MLINE_CLOSED) !== 0,
      style: this.styleName(style ? this.ctx.wasm.dwg_ref_get_object(style) : 0),
    }
  }

  private mlineVertexLayout(): { size: number; point: number } {
    if (!this.mlineVertex) {
      const { lib } = this.ctx
      this.mlineVertex = {
        size: lib.dwg_dynapi_subclass_size(MLINE_VERTEX),
        point: lib.dwg_dynapi_subclass_field_offset(MLINE_VERTEX, 'vertex'),
      }
    }
    return this.mlineVertex
  }

  private styleName(style: Ptr): string {
    let name = this.styleNames.get(style)
    if (name === undefined) {
      name = nameOf(this.ctx, style)
      this.styleNames.set(style, name)
    }
    return name
  }
}

type HatchSeg = Dwg_HATCH_Path['segs'][number]

function hatchEdge(seg: HatchSeg): LoopEdge | null {
  const p = (v: { x: number; y: number } | undefined): Point => ({
    x: v?.x ?? 0,
    y: v?.y ?? 0,
    z: 0,
  })
  switch (seg.curve_type) {
    case 1:
      return { kind: 'line', a: p(seg.first_endpoint), b: p(seg.second_endpoint) }
    case 2:
      return {
        kind: 'arc',
        center: p(seg.center),
        radius: seg.radius,
        start: seg.start_angle,
        end: seg.end_angle,
        ccw: Boolean(seg.is_ccw),
      }
    case 3:
      return {
        kind: 'ellipse',
        center: p(seg.center),
        major: p(seg.endpoint),
        ratio: seg.minor_major_ratio,
        start: seg.start_angle,
        end: seg.end_angle,
        ccw: Boolean(seg.is_ccw),
      }
    case 4:
      return {
        kind: 'spline',
        spline: {
          degree: seg.degree,
          knots: seg.knots ?? [],
          control: (seg.control_points ?? []).map((c) => ({ x: c.x, y: c.y, z: 0 })),
          weights: seg.is_rational ? (seg.control_points ?? []).map((c) => c.w ?? 1) : [],
          fit: (seg.fitpts ?? []).map((f) => ({ x: f.x, y: f.y, z: 0 })),
        },
      }
    default:
      return null
  }
}
