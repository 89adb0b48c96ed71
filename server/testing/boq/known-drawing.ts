import { DxfWriter } from './dxf-writer.ts'

/** Truth of the drawing `knownDrawing()` writes: what its BOQ must say. */
export const KNOWN = {
  units: 'metres',
  blocks: [
    // 3 × D1 + 2 × D2 plain references, and a 2 × 3 MINSERT.
    { block: 'DOOR', layer: 'Doors', count: 11, nested: 0 },
    // A dynamic block: its anonymous *U7 block names WINDOW.
    { block: 'WINDOW', layer: 'Windows', count: 2, nested: 0 },
    { block: 'ROOM', layer: 'Rooms', count: 3, nested: 0 },
    // ROOM holds 2 CHAIRs: 6 nested, counted on the rooms' layer.
    { block: 'CHAIR', layer: 'Rooms', count: 6, nested: 6 },
  ],
  doorTypes: { D1: 3, D2: 2 },
  lengths: {
    Walls: { line: 5 + 10 * 2 },
    Curves: {
      // Semicircle over a 10-long chord, and a full circle of two bulges: 5π + 10π.
      polyline: 15 * Math.PI,
      arc: Math.PI, // radius 2, 90°
      circle: 6 * Math.PI, // radius 3
      ellipse: 9.688448220547675, // semi-axes 2 and 1
      // A degree-1 spline (0,0)→(3,4)→(3,10), and a rational quarter circle of radius 1.
      spline: 11 + Math.PI / 2,
    },
    Heavy: { polyline: 16 + 7 }, // closed 4 × 4 square, and a 3D polyline 3 up then 4 across
  },
  areas: {
    // Square 100 × 100 with a round hole of radius 10, and a full circle made of bulges (r = 5).
    Hatched: {
      hatches: 1,
      hatchArea: 10000 - 100 * Math.PI,
      closedPolylines: 0,
      net: 10000 - 100 * Math.PI,
    },
    // The bulged full circle (r = 5), and the circle (r = 3) and whole ellipse (2 × 1) as outlines.
    Curves: {
      closedPolylines: 1,
      closedPolylineArea: 25 * Math.PI,
      closedCurves: 2,
      closedCurveArea: 11 * Math.PI,
      net: 36 * Math.PI,
    },
    // A 20 × 20 slab outline and the hatch that fills it: 400, not 800.
    Slabs: { closedPolylines: 1, hatches: 1, hatchArea: 400, filledByHatch: 1, net: 400 },
    // A 10 × 5 room outline; an arc-edged hatch (half disc r = 4 on a chord) on its own layer.
    Rooms: { closedPolylines: 1, closedPolylineArea: 50, net: 50 },
    Heavy: { closedPolylines: 1, closedPolylineArea: 16, net: 16 },
    Arcs: { hatches: 1, hatchArea: 8 * Math.PI, net: 8 * Math.PI },
  },
  titleBlock: {
    block: 'TITLEBLOCK',
    attributes: { TITLE: 'Ground floor', DWGNO: 'A-101', SCALE: '1:100' },
  },
}

export function knownDrawing(): string {
  const w = new DxfWriter()
  w.insunits = 6
  w.block('DOOR', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
  w.block('WINDOW', (to, owner) => w.line(to, owner, '0', [0, 0], [2, 0]))
  w.block('*U7', (to, owner) => w.line(to, owner, '0', [0, 0], [2, 0]), 'WINDOW')
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.3))
  w.block('ROOM', (to, owner) => {
    // Block content is not top-level linework: these lines must not count.
    w.line(to, owner, 'Walls', [0, 0], [100, 0])
    w.insert(to, owner, '0', 'CHAIR', [1, 1])
    w.insert(to, owner, '0', 'CHAIR', [2, 1])
  })
  w.block('TITLEBLOCK', (to, owner) => w.line(to, owner, '0', [0, 0], [420, 0]))

  const { to, owner } = w.target('model')
  for (const type of ['D1', 'D1', 'D1', 'D2', 'D2'])
    w.insert(to, owner, 'Doors', 'DOOR', [0, 0], { TYPE: type, FIRE: 'EI30' })
  w.insert(to, owner, 'Doors', 'DOOR', [50, 50], {}, { cols: 2, rows: 3 })
  w.insert(to, owner, 'Windows', '*U7', [5, 5])
  w.insert(to, owner, 'Windows', '*U7', [9, 5])
  for (const x of [0, 20, 40]) w.insert(to, owner, 'Rooms', 'ROOM', [x, 0])

  w.line(to, owner, 'Walls', [0, 0], [3, 4])
  for (let i = 0; i < 10; i++) w.line(to, owner, 'Walls', [i, 10], [i, 12])

  w.lwpolyline(
    to,
    owner,
    'Curves',
    [
      { x: 0, y: 0, bulge: 1 },
      { x: 10, y: 0 },
    ],
    false,
  )
  w.lwpolyline(
    to,
    owner,
    'Curves',
    [
      { x: 20, y: 0, bulge: 1 },
      { x: 30, y: 0, bulge: 1 },
    ],
    true,
  )
  w.arc(to, owner, 'Curves', [0, 0], 2, 0, 90)
  w.circle(to, owner, 'Curves', [0, 0], 3)
  w.ellipse(to, owner, 'Curves', [0, 0], [2, 0], 0.5)
  w.spline(
    to,
    owner,
    'Curves',
    1,
    [0, 0, 1, 2, 2],
    [
      [0, 0],
      [3, 4],
      [3, 10],
    ],
  )
  w.spline(
    to,
    owner,
    'Curves',
    2,
    [0, 0, 0, 1, 1, 1],
    [
      [1, 0],
      [1, 1],
      [0, 1],
    ],
    [1, Math.SQRT1_2, 1],
  )

  w.polyline(
    to,
    owner,
    'Heavy',
    [
      { x: 0, y: 0 },
      { x: 4, y: 0 },
      { x: 4, y: 4 },
      { x: 0, y: 4 },
    ],
    true,
    false,
  )
  w.polyline(
    to,
    owner,
    'Heavy',
    [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 3 },
      { x: 4, y: 0, z: 3 },
    ],
    false,
    true,
  )

  w.lwpolyline(
    to,
    owner,
    'Rooms',
    [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 5 },
      { x: 0, y: 5 },
    ],
    true,
  )

  const square = (n: number): [number, number][] => [
    [0, 0],
    [n, 0],
    [n, n],
    [0, n],
  ]
  const edges = (pts: [number, number][]) =>
    pts.map((p, i) => ({
      line: [p, pts[(i + 1) % pts.length]] as [[number, number], [number, number]],
    }))
  w.hatch(to, owner, 'Hatched', [
    { edges: edges(square(100)) },
    { edges: [{ arc: { center: [50, 50], radius: 10, start: 0, end: 360 } }] },
  ])
  w.lwpolyline(
    to,
    owner,
    'Slabs',
    square(20).map(([x, y]) => ({ x, y })),
    true,
  )
  w.hatch(to, owner, 'Slabs', [{ polyline: square(20).map(([x, y]) => ({ x, y })) }])
  // Half disc: a clockwise arc from (4,0) over the top to (−4,0), closed by a line.
  w.hatch(to, owner, 'Arcs', [
    {
      edges: [
        {
          line: [
            [-4, 0],
            [4, 0],
          ],
        },
        { arc: { center: [0, 0], radius: 4, start: 0, end: 180, ccw: true } },
      ],
    },
  ])

  // Paper space: a title block, and a line that is not model-space linework.
  const paper = w.target('paper')
  w.insert(paper.to, paper.owner, 'Title', 'TITLEBLOCK', [0, 0], KNOWN.titleBlock.attributes)
  w.line(paper.to, paper.owner, 'Walls', [0, 0], [1000, 0])
  return w.toString()
}
