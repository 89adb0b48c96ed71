/**
 * Half a turn of a helix of radius 1 and pitch 3, as the cubic spline DXF stores for it: written
 * with `DxfWriter.helix(to, owner, layer, degree, knots, control, shape)`, read back as its spline.
 */
export const HALF_TURN_HELIX = {
  degree: 3,
  knots: [0, 0, 0, 0, 1, 1, 1, 1],
  control: [
    [1, 0, 0],
    [1, 1, 0.5],
    [-1, 1, 1],
    [-1, 0, 1.5],
  ] as [number, number, number][],
  shape: { radius: 1, turns: 0.5, turnHeight: 3 },
}

/** The helix's control points as the readers give them. */
export const HALF_TURN_HELIX_CONTROL = HALF_TURN_HELIX.control.map(([x, y, z]) => ({ x, y, z }))
