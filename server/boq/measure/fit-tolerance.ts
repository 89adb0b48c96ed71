import type { DrawingEntity } from '../model/drawing.ts'
import type { Collator } from './counts.ts'
import { isNoLength, sizeOf } from './no-quantity.ts'

/** Splines measured through fit points AutoCAD's curve only passes near, counted by layer. */
export type NearFit = Map<string, number>

/**
 * Counts a measured spline AutoCAD keeps as fit points alone (no control points) with a fit
 * tolerance: its curve was fitted near the points, not through them, and cannot be rebuilt, so
 * the length through the points may differ slightly from AutoCAD's.
 */
export function noteNearFit(nearFit: NearFit, entity: DrawingEntity): void {
  if (entity.type !== 'spline') return
  if (entity.control.length >= 2 || entity.fit.length < 2) return
  // AutoCAD keeps a fit tolerance of 0 as 1e-10, and dxf-json gives 1e-9 where a DXF has none: a
  // tolerance no larger than the rounding of the spline's own coordinates is a curve through the
  // points, which curves/spline-fit.ts rebuilds exactly.
  if (isNoLength(entity.fitTolerance ?? 0, sizeOf(entity.fit))) return
  nearFit.set(entity.layer, (nearFit.get(entity.layer) ?? 0) + 1)
}

/** One warning for all such splines, naming how many and on which layers; null when none. */
export function nearFitWarning(nearFit: NearFit, compare: Collator): string | null {
  const layers = [...nearFit].sort(([a], [b]) => compare(a, b))
  const total = layers.reduce((sum, [, count]) => sum + count, 0)
  if (total === 0) return null
  const one = total === 1
  const where =
    layers.length === 1
      ? `layer ${layers[0][0]}`
      : `layers ${layers.map(([layer, count]) => `${layer} (${count.toLocaleString('en')})`).join(', ')}`
  return `${total.toLocaleString('en')} ${one ? 'spline' : 'splines'} on ${where} ${one ? 'was' : 'were'} drawn with a fit tolerance: AutoCAD's curve passes near ${one ? 'its' : 'their'} fit points, not through them; measured through the points, ${one ? 'its length' : 'their lengths'} may differ slightly from AutoCAD's.`
}
