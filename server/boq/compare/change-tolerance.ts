/**
 * How far two readings of the same linework or areas can differ: a DWG keeps a spline as fit
 * points, from which the engine rebuilds the curve, while a DXF of it carries the control points
 * its writer computed; the two measure up to 0.01% apart on a layer. A change below 0.05% of the
 * figure is taken as no change (and said in the notes); counts must be equal.
 */
export const MEASURING_TOLERANCE = 5e-4

/** Equal within `tolerance` of the larger figure (at least one part in a billion). */
export function sameFigure(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= tolerance * Math.max(1e-9, Math.abs(a), Math.abs(b))
}
