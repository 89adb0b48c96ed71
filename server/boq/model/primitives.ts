/**
 * The figures both the read drawing (drawing.ts, what is measured) and its picture (picture.ts,
 * what the drawing view draws) are made of, in plain numbers: points, polyline vertices,
 * ellipses, splines and hatch boundary loops.
 */

export type Point = { x: number; y: number; z: number }

/** A polyline vertex; `bulge` is tan(θ/4) of the arc to the next vertex (0 = straight). */
export type Vertex = { x: number; y: number; z: number; bulge: number }

/** An elliptical arc; angles (parameters) in radians. */
export type EllipseGeometry = {
  center: Point
  /** Major axis end point, relative to the centre. */
  major: Point
  ratio: number
  start: number
  end: number
}

/** One edge of a hatch boundary loop; angles in radians, counter-clockwise unless `ccw` is false. */
export type LoopEdge =
  | { kind: 'line'; a: Point; b: Point }
  | { kind: 'arc'; center: Point; radius: number; start: number; end: number; ccw: boolean }
  | ({ kind: 'ellipse'; ccw: boolean } & EllipseGeometry)
  | { kind: 'spline'; spline: SplineGeometry }

export type Loop = { kind: 'polyline'; vertices: Vertex[] } | { kind: 'edges'; edges: LoopEdge[] }

export type SplineGeometry = {
  degree: number
  knots: number[]
  control: Point[]
  /** One weight per control point, or empty when the spline is not rational. */
  weights: number[]
  fit: Point[]
  /** End tangents of a fit-point spline (unit or any length; absent when not set). */
  startTangent?: Point | null
  endTangent?: Point | null
  /**
   * A fit-point spline's fit tolerance (DXF 44): above 0, AutoCAD's curve passes within it of
   * the fit points rather than through them. Absent when the reader gives none.
   */
  fitTolerance?: number
}
