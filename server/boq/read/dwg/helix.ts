import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { HelixParameters } from '../../model/drawing.ts'
import type { Point } from '../../model/primitives.ts'
import type { Ptr } from './context.ts'

/**
 * A HELIX's own parameters from LibreDWG's fields (axis_base_pt, start_pt, axis_vector, radius,
 * turns, turn_height, handedness, constraint_type), as `{ parameters }` to spread into the helix;
 * `{}` when they cannot be read (the helix is then measured along its spline).
 */
export function helixParameters(lib: LibreDwgEx, tio: Ptr): { parameters?: HelixParameters } {
  const value = (field: string): unknown => lib.dwg_dynapi_entity_value(tio, field)?.data
  const point = (field: string): Point | null => {
    const p = value(field) as Partial<Point> | undefined
    return p && typeof p.x === 'number' && typeof p.y === 'number'
      ? { x: p.x, y: p.y, z: typeof p.z === 'number' ? p.z : 0 }
      : null
  }
  const axisBase = point('axis_base_pt')
  const start = point('start_pt')
  const axis = point('axis_vector')
  const [radius, turns, turnHeight] = ['radius', 'turns', 'turn_height'].map(value)
  if (!axisBase || !start || !axis) return {}
  if (typeof radius !== 'number' || typeof turns !== 'number' || typeof turnHeight !== 'number')
    return {}
  const handedness = Number(value('handedness')) || 0
  const constraint = Number(value('constraint_type')) || 0
  return {
    parameters: { axisBase, start, axis, radius, turns, turnHeight, handedness, constraint },
  }
}
