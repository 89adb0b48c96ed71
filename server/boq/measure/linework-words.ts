import type { LengthKind } from '../model/schema.ts'

/** Each kind of linework as a person counts it: `arcs`, `polylines`. */
export const LINEWORK_LABELS: Record<LengthKind, string> = {
  line: 'lines',
  arc: 'arcs',
  circle: 'circles',
  polyline: 'polylines',
  spline: 'splines',
  ellipse: 'ellipses',
  helix: 'helixes',
  multiline: 'multilines',
}

/**
 * A linework line's description, `Arcs on layer Tavolo 2`: one line per layer and kind, so that
 * the arcs, polylines and splines of one layer read as three things, not three of one.
 */
export function lineworkDescription(kind: string, layer: string): string {
  const label = LINEWORK_LABELS[kind as LengthKind] ?? `${kind} linework`
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} on layer ${layer}`
}
