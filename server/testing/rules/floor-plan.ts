import { DxfWriter } from '../boq/dxf-writer.ts'

/**
 * A floor plan in millimetres as architects draw one, written as DXF: three rooms on A-AREA,
 * each a closed outline named by a text inside it on A-TEXT (Kitchen 4 × 5 m, Living 6 × 5 m,
 * Bath 2 × 2 m), a chair in the kitchen, two in the living room and one outside every room.
 * The extraction reads it under any name, `.dwg` too (the reader tells DXF by its content).
 */
export const FLOOR_PLAN_ROOMS = [
  { name: 'Kitchen', area: 20, perimeter: 18, chairs: 1 },
  { name: 'Living', area: 30, perimeter: 22, chairs: 2 },
  { name: 'Bath', area: 4, perimeter: 8, chairs: 0 },
] as const

/** The chairs no room holds. */
export const FLOOR_PLAN_CHAIRS_OUTSIDE = 1

export function floorPlanDxf(): string {
  return floorPlan().w.toString()
}

/**
 * The floor plan with a fault for each of two rows: an outline on A-AREA left open (not a
 * zone), and a store on A-SPACE (3 × 2 m) with no text inside (an unnamed zone).
 */
export function floorPlanWithFaultsDxf(): string {
  const { w, to, owner } = floorPlan()
  const outline = (layer: string, x: number, closed: boolean) =>
    w.lwpolyline(
      to,
      owner,
      layer,
      [
        { x, y: 10_000 },
        { x: x + 3000, y: 10_000 },
        { x: x + 3000, y: 12_000 },
        { x, y: 12_000 },
      ],
      closed,
    )
  outline('A-AREA', 0, false)
  outline('A-SPACE', 5000, true)
  return w.toString()
}

function floorPlan() {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 200))
  const { to, owner } = w.target('model')
  const room = (x: number, y: number, width: number, height: number, name: string) => {
    w.lwpolyline(
      to,
      owner,
      'A-AREA',
      [
        { x, y },
        { x: x + width, y },
        { x: x + width, y: y + height },
        { x, y: y + height },
      ],
      true,
    )
    w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [
      10,
      x + width / 2,
      20,
      y + height / 2,
      30,
      0,
      40,
      250,
      1,
      name,
    ])
  }
  room(0, 0, 4000, 5000, 'Kitchen')
  room(4000, 0, 6000, 5000, 'Living')
  room(10_000, 0, 2000, 2000, 'Bath')
  w.insert(to, owner, 'Furniture', 'CHAIR', [1000, 1000])
  w.insert(to, owner, 'Furniture', 'CHAIR', [6000, 1000])
  w.insert(to, owner, 'Furniture', 'CHAIR', [8000, 3000])
  w.insert(to, owner, 'Furniture', 'CHAIR', [20_000, 1000])
  return { w, to, owner }
}
