/** A circle drawn with this many sides is off by under a pixel up to 300 px across its radius. */
const SIDES_PER_TURN = 48
/** The fewest sides of the shortest arc. */
const MIN_SIDES = 4

/** An arc of a circle or an ellipse as the viewer's renderer is given it. */
interface Arc {
  closed: boolean
  deltaAngle: number
  getPoints(sides: number): unknown[]
}

/** The part of the viewer's renderer that draws arcs (`linePoints` is private to it). */
interface ArcRenderer {
  circularArc(arc: Arc): unknown
  ellipticalArc(arc: Arc): unknown
}

/** How many sides an arc sweeping `sweep` radians is drawn with: a circle, SIDES_PER_TURN. */
export function sidesOf(arc: Pick<Arc, 'closed' | 'deltaAngle'>): number {
  const turns = arc.closed ? 1 : Math.abs(arc.deltaAngle) / (2 * Math.PI)
  return Math.max(MIN_SIDES, Math.ceil(SIDES_PER_TURN * Math.min(1, turns)))
}

/**
 * Makes the viewer's renderer draw circles, arcs and ellipses with sides by their sweep instead of
 * 100 each, however small (its `circleSides` option is not read in this version). Without a GPU a
 * frame's cost follows the sides drawn: 100,000 circles were 20.8 million line indices a frame,
 * and building them took about 2 s of a 200,000-entity drawing's opening.
 */
export function withFewerArcPoints(renderer: unknown): void {
  const drawing = renderer as ArcRenderer & { linePoints(points: unknown[]): unknown }
  drawing.circularArc = (arc) => drawing.linePoints(arc.getPoints(sidesOf(arc)))
  drawing.ellipticalArc = (arc) => drawing.linePoints(arc.getPoints(sidesOf(arc)))
}
