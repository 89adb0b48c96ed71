import type { DrawingEntity, HelixParameters } from '../../model/drawing.ts'
import type { Loop, LoopEdge, Point, SplineGeometry, Vertex } from '../../model/primitives.ts'
import type { Pair } from './scan.ts'

export const DEG = Math.PI / 180

// dxf-json's output, only as far as this reader looks at it.
export type Xy = { x?: number; y?: number; z?: number }
export type DxfEntity = Record<string, unknown> & {
  type: string
  layer?: string
  handle?: string | number
  ownerBlockRecordSoftId?: string
  isInPaperSpace?: boolean
  /** Application groups (`102 {NAME`) by name: for ACAD_XDICTIONARY, the dictionary's 360. */
  extensions?: Record<string, { code: number; value: unknown }[]>
}

export const pt = (p: unknown): Point => {
  const v = (p ?? {}) as Xy
  return { x: num(v.x), y: num(v.y), z: num(v.z) }
}
/**
 * A number as the file gives it; absent, 0 (the DXF default). A value written as no number
 * (`inf`, `nan`, `1e999`) stays not finite, so the measures leave it out as damaged geometry
 * instead of reading it as 0.
 */
export const num = (v: unknown): number =>
  v === undefined || v === null || v === '' ? 0 : typeof v === 'number' ? v : Number(v)

/** The entity's handle from the file; dxf-json numbers the ones without (R12) itself: ''. */
export const handleOf = (e: DxfEntity): string =>
  typeof e.handle === 'string' ? e.handle.toUpperCase() : ''

/** Geometry of a measurable entity as dxf-json gives it; null when the type is not measured. */
export function measurable(e: DxfEntity): DrawingEntity | null {
  const layer = String(e.layer ?? '0')
  const handle = handleOf(e)
  switch (e.type) {
    case 'LINE':
      return { type: 'line', layer, handle, a: pt(e.startPoint), b: pt(e.endPoint) }
    case 'ARC':
      return {
        type: 'arc',
        layer,
        handle,
        radius: num(e.radius),
        start: num(e.startAngle) * DEG,
        end: num(e.endAngle) * DEG,
      }
    case 'CIRCLE':
      return { type: 'circle', layer, handle, center: pt(e.center), radius: num(e.radius) }
    case 'ELLIPSE':
      return {
        type: 'ellipse',
        layer,
        handle,
        center: pt(e.center),
        major: pt(e.majorAxisEndPoint),
        ratio: num(e.axisRatio),
        start: num(e.startAngle),
        end: num(e.endAngle),
      }
    case 'LWPOLYLINE': {
      const closed = (num(e.flag) & 1) !== 0
      return { type: 'polyline', layer, handle, vertices: lwVertices(e), closed, is3d: false }
    }
    case 'POLYLINE':
      return heavyPolyline(e, layer, handle)
    case 'SPLINE':
      return { type: 'spline', layer, handle, ...splineOf(e) }
    case 'HATCH':
      return {
        type: 'hatch',
        layer,
        handle,
        loops: hatchLoops(e.boundaryPaths),
        style: num(e.hatchStyle),
      }
    case 'MLINE':
      return {
        type: 'mline',
        layer,
        handle,
        vertices: ((e.segments as { position?: Xy }[]) ?? []).map((s) => pt(s.position)),
        // 71: 1 has vertices, 2 closed, 4 and 8 caps suppressed.
        closed: (num(e.flags) & 2) !== 0,
        style: String(e.name ?? ''),
      }
    default:
      return null
  }
}

/** A LWPOLYLINE's vertices, at its elevation (in its object coordinate system). */
export function lwVertices(e: DxfEntity): Vertex[] {
  const elevation = num(e.elevation)
  return ((e.vertices as (Xy & { bulge?: number })[]) ?? []).map((v) => ({
    x: num(v.x),
    y: num(v.y),
    z: elevation,
    bulge: num(v.bulge),
  }))
}

/** POLYLINE flags: 16 = 3D mesh, 64 = polyface mesh: surfaces, not linework. */
export const isMeshPolyline = (e: DxfEntity): boolean => (num(e.flag) & (16 | 64)) !== 0

function heavyPolyline(e: DxfEntity, layer: string, handle: string): DrawingEntity | null {
  if (isMeshPolyline(e)) return null
  const flag = num(e.flag)
  return {
    type: 'polyline',
    layer,
    handle,
    vertices: heavyVertices(e),
    closed: (flag & 1) !== 0,
    is3d: (flag & 8) !== 0,
  }
}

/** A POLYLINE's vertices, spline frame control points left out. */
export function heavyVertices(e: DxfEntity): Vertex[] {
  const vertices: Vertex[] = []
  for (const v of (e.vertices as (Xy & { bulge?: number; flag?: number })[]) ?? []) {
    if (num(v.flag) & 16) continue // spline frame control point
    vertices.push({ x: num(v.x), y: num(v.y), z: num(v.z), bulge: num(v.bulge) })
  }
  return vertices
}

export function splineOf(e: DxfEntity): SplineGeometry {
  const control = ((e.controlPoints as Xy[]) ?? []).map(pt)
  const weights = Array.isArray(e.weights) ? (e.weights as number[]) : []
  return {
    degree: num(e.degree),
    knots: (e.knots as number[]) ?? [],
    control,
    weights: weights.length === control.length ? weights : [],
    fit: ((e.fitPoints as Xy[]) ?? []).map(pt),
    startTangent: e.startTangent ? pt(e.startTangent) : null,
    endTangent: e.endTangent ? pt(e.endTangent) : null,
    fitTolerance: num(e.fitTolerance),
  }
}

/** DIMENSION's type (70, low three bits) by the name the DWG reader gives the entity. */
const DIMENSIONS = ['LINEAR', 'ALIGNED', 'ANG2LN', 'DIAMETER', 'RADIUS', 'ANG3PT', 'ORDINATE']

/** Heavy polylines and dimensions under the names the DWG reader gives them, so both count alike. */
export function dxfTypeName(e: DxfEntity): string {
  if (e.type === 'DIMENSION') {
    const kind = DIMENSIONS[num(e.dimensionType) & 7]
    return kind ? `DIMENSION_${kind}` : 'DIMENSION'
  }
  if (e.type !== 'POLYLINE') return e.type
  const flag = num(e.flag)
  if (flag & 64) return 'POLYLINE_PFACE'
  if (flag & 16) return 'POLYLINE_MESH'
  return flag & 8 ? 'POLYLINE_3D' : 'POLYLINE_2D'
}

/**
 * A HELIX from its group pairs (dxf-json does not read the type): the spline of its AcDbSpline
 * part, and its own parameters from its AcDbHelix part (axis base point 10, start point 11, axis
 * vector 12, radius 40, turns 41, turn height 42, handedness 290, constraint 280), given when its
 * three points and 40 to 42 are there.
 */
export function helixFromPairs(
  pairs: Pair[],
  handle: string,
): Extract<DrawingEntity, { type: 'helix' }> {
  let layer = '0'
  let part = ''
  let degree = 3
  const knots: number[] = []
  const weights: number[] = []
  const points: Record<number, Point[]> = { 0: [], 1: [], 2: [], 3: [] }
  const helix: Record<number, Point[]> = { 0: [], 1: [], 2: [] }
  const numbers = new Map<number, number>()
  for (const [code, value] of pairs) {
    if (code === 100) part = value
    else if (code === 8 && (part === '' || part === 'AcDbEntity')) layer = value
    else if (part === 'AcDbSpline') {
      const n = Number(value) || 0
      if (code === 71) degree = n
      else if (code === 40) knots.push(n)
      else if (code === 41) weights.push(n)
      // 10 control, 11 fit, 12 start tangent, 13 end tangent; +10 is y, +20 is z.
      else if (code >= 10 && code <= 13) points[code - 10].push({ x: n, y: 0, z: 0 })
      else if (code >= 20 && code <= 23) setLast(points[code - 20], 'y', n)
      else if (code >= 30 && code <= 33) setLast(points[code - 30], 'z', n)
    } else if (part === 'AcDbHelix') {
      // As written: a value that is no number stays one, and the parameters are not used.
      const n = Number(value)
      if (code >= 10 && code <= 12) helix[code - 10].push({ x: n, y: 0, z: 0 })
      else if (code >= 20 && code <= 22) setLast(helix[code - 20], 'y', n)
      else if (code >= 30 && code <= 32) setLast(helix[code - 30], 'z', n)
      else if ([40, 41, 42, 280, 290].includes(code) && !numbers.has(code)) numbers.set(code, n)
    }
  }
  const control = points[0]
  const parameters = helixParameters(helix, numbers)
  return {
    type: 'helix',
    layer,
    handle,
    degree,
    knots,
    control,
    weights: weights.length === control.length ? weights : [],
    fit: points[1],
    startTangent: points[2][0] ?? null,
    endTangent: points[3][0] ?? null,
    ...(parameters ? { parameters } : {}),
  }
}

function helixParameters(
  points: Record<number, Point[]>,
  numbers: Map<number, number>,
): HelixParameters | null {
  const [axisBase] = points[0]
  const [start] = points[1]
  const [axis] = points[2]
  const radius = numbers.get(40)
  const turns = numbers.get(41)
  const turnHeight = numbers.get(42)
  if (!axisBase || !start || !axis) return null
  if (radius === undefined || turns === undefined || turnHeight === undefined) return null
  const handedness = numbers.get(290) ?? 1
  const constraint = numbers.get(280) ?? 0
  return { axisBase, start, axis, radius, turns, turnHeight, handedness, constraint }
}

function setLast(list: Point[], axis: 'y' | 'z', value: number): void {
  const last = list[list.length - 1]
  if (last) last[axis] = value
}

type DxfEdge = Record<string, unknown> & { type: number }

export function hatchLoops(paths: unknown): Loop[] {
  const loops: Loop[] = []
  for (const path of (paths as Record<string, unknown>[]) ?? []) {
    if (num(path.boundaryPathTypeFlag) & 2) {
      const vertices = ((path.vertices as (Xy & { bulge?: number })[]) ?? []).map((v) => ({
        x: num(v.x),
        y: num(v.y),
        z: 0,
        bulge: num(v.bulge),
      }))
      if (vertices.length) loops.push({ kind: 'polyline', vertices })
      continue
    }
    const edges: LoopEdge[] = []
    for (const edge of (path.edges as DxfEdge[]) ?? []) {
      const converted = hatchEdge(edge)
      if (converted) edges.push(converted)
    }
    if (edges.length) loops.push({ kind: 'edges', edges })
  }
  return loops
}

function hatchEdge(edge: DxfEdge): LoopEdge | null {
  switch (edge.type) {
    case 1:
      return { kind: 'line', a: pt(edge.start), b: pt(edge.end) }
    case 2:
      return {
        kind: 'arc',
        center: pt(edge.center),
        radius: num(edge.radius),
        start: num(edge.startAngle) * DEG,
        end: num(edge.endAngle) * DEG,
        ccw: edge.isCCW !== false && edge.isCCW !== 0,
      }
    case 3:
      return {
        kind: 'ellipse',
        center: pt(edge.center),
        major: pt(edge.end),
        ratio: num(edge.lengthOfMinorAxis),
        start: num(edge.startAngle) * DEG,
        end: num(edge.endAngle) * DEG,
        ccw: edge.isCCW !== false && edge.isCCW !== 0,
      }
    case 4: {
      const control = (edge.controlPoints as (Xy & { weight?: number })[]) ?? []
      const rational = control.some((c) => typeof c.weight === 'number')
      return {
        kind: 'spline',
        spline: {
          degree: num(edge.degree),
          knots: (edge.knots as number[]) ?? [],
          control: control.map(pt),
          weights: rational
            ? control.map((c) => (typeof c.weight === 'number' ? c.weight : 1))
            : [],
          fit: ((edge.fitDatum as Xy[]) ?? []).map(pt),
        },
      }
    }
    default:
      return null
  }
}
