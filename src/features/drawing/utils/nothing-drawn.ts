import { type DrawnGeometry, geometryCounts } from '#contract/drawing-geometry.ts'
import { PAPER_SPACE } from '#contract/no-quantities.ts'

/** One kind of entity the bill left out, as the job's result lists it (`notMeasured`). */
export type LeftOut = { type: string; count: number }

/** Kinds the view cannot draw, as a person names them (one, several); others keep their type. */
const NAMES: [RegExp, string, string][] = [
  [/^3DSOLID$/, '3D solid', '3D solids'],
  [/^3DFACE$/, '3D face', '3D faces'],
  [/^BODY$/, 'body', 'bodies'],
  [/^REGION$/, 'region', 'regions'],
  [/^(POLYLINE_PFACE|POLYFACE_MESH)$/, 'polyface mesh', 'polyface meshes'],
  [/^(POLYLINE_MESH|POLYGON_MESH)$/, 'polygon mesh', 'polygon meshes'],
  [/^MESH$/, 'mesh', 'meshes'],
  [/SURFACE$/, 'surface', 'surfaces'],
  [/^(TEXT|MTEXT|RTEXT|ARCALIGNEDTEXT)$/, 'text', 'texts'],
  [/^POINT$/, 'point', 'points'],
  [/^(XLINE|RAY)$/, 'construction line', 'construction lines'],
  [/^IMAGE$/, 'image', 'images'],
]

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })

/** Whether the geometry has no line, arc or fill to draw: the view would be an empty paper. */
export function drawsNothing(
  geometry: Pick<DrawnGeometry, 'pathOwners' | 'arcOwners' | 'triangleOwners'>,
): boolean {
  const { paths, arcs, triangles } = geometryCounts(geometry)
  return paths + arcs + triangles === 0
}

/**
 * What the drawing view says in place of a drawing with nothing to draw: what its model space
 * holds that is neither drawn nor measured (from the job's list of what it left out, not from
 * its bill), and what its layouts hold. Without the list, only that nothing can be drawn.
 */
export function nothingDrawnText(leftOut: readonly LeftOut[] = []): string {
  const inModel = leftOut.filter((entry) => entry.type !== PAPER_SPACE && entry.count > 0)
  const onLayouts = leftOut
    .filter((entry) => entry.type === PAPER_SPACE)
    .reduce((sum, entry) => sum + entry.count, 0)
  const held =
    inModel.length > 0
      ? `This drawing's model space holds ${listed(described(inModel))}: not drawn, not measured.`
      : "Nothing in this drawing's model space can be drawn."
  if (onLayouts === 0) return held
  const entities = onLayouts === 1 ? 'entity' : 'entities'
  return `${held} Its layouts (paper space) hold ${whole.format(onLayouts)} ${entities}: only model space is drawn and measured.`
}

/** Each kind with its count, kinds a person names alike (TEXT, MTEXT) counted together. */
function described(leftOut: readonly LeftOut[]): string[] {
  const counts = new Map<string, { one: string; several: string; count: number }>()
  for (const { type, count } of leftOut) {
    const name = NAMES.find(([pattern]) => pattern.test(type))
    const [one, several] = name ? [name[1], name[2]] : [`${type} entity`, `${type} entities`]
    const kind = counts.get(one) ?? { one, several, count: 0 }
    kind.count += count
    counts.set(one, kind)
  }
  return [...counts.values()].map(
    ({ one, several, count }) => `${whole.format(count)} ${count === 1 ? one : several}`,
  )
}

/** `a`, `a and b`, `a, b and c`. */
function listed(parts: string[]): string {
  return parts.length < 2
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}
