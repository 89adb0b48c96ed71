import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { fixture } from '../../testing/boq/fixtures.ts'
import { HALF_TURN_HELIX, HALF_TURN_HELIX_CONTROL } from '../../testing/boq/sample-helix.ts'
import { loopOutline } from '../measure/curves/loops.ts'
import { computeBoq } from '../measure/quantities.ts'
import type { Drawing } from '../model/drawing.ts'
import type { PictureEntity, Shape } from '../model/picture.ts'
import type { Point } from '../model/primitives.ts'
import { readDxf } from './dxf-reader.ts'

const read = (w: DxfWriter | string): Drawing =>
  readDxf(new TextEncoder().encode(typeof w === 'string' ? w : w.toString()), { picture: true })

const DEG = Math.PI / 180
const MIRRORED = [210, 0, 220, 0, 230, -1]

function shapeOf<K extends Shape['kind']>(e: PictureEntity | undefined, kind: K) {
  expect(e?.shape?.kind).toBe(kind)
  return e?.shape as Extract<Shape, { kind: K }>
}

function byHandle(d: Drawing, handle: string): PictureEntity | undefined {
  return d.picture.modelSpace.find((e) => e.handle === handle)
}

/** An INSERT written out, for what the writer's insert() does not give (scale, rotation, extrusion). */
function insertPairs(block: string, at: Point, options: { scale?: Point; degrees?: number } = {}) {
  const { scale = { x: 1, y: 1, z: 1 }, degrees = 0 } = options
  return [
    2,
    block,
    10,
    at.x,
    20,
    at.y,
    30,
    at.z,
    41,
    scale.x,
    42,
    scale.y,
    43,
    scale.z,
    50,
    degrees,
  ]
}

/** Where a block's point lands through an insert shape (and one MINSERT cell), seen from above. */
function placed(s: Extract<Shape, { kind: 'insert' }>, base: Point, p: Point, col = 0, row = 0) {
  const x = (p.x - base.x) * s.scale.x + col * s.columnSpacing
  const y = (p.y - base.y) * s.scale.y + row * s.rowSpacing
  const c = Math.cos(s.rotation)
  const n = Math.sin(s.rotation)
  return { x: s.position.x + c * x - n * y, y: s.position.y + n * x + c * y }
}

function expectClose(actual: { x: number; y: number }, expected: { x: number; y: number }) {
  expect(actual.x).toBeCloseTo(expected.x, 9)
  expect(actual.y).toBeCloseTo(expected.y, 9)
}

const onArc = (center: Point, radius: number, angle: number) => ({
  x: center.x + radius * Math.cos(angle),
  y: center.y + radius * Math.sin(angle),
})

describe('the picture of model space', () => {
  it('gives lines, arcs, circles, bulged polylines and hatches with their numbers', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const line = w.line(to, owner, 'A', [1, 2, 3], [4, 5, 6])
    const arc = w.arc(to, owner, 'A', [1, 1], 2, 30, 120)
    const circle = w.circle(to, owner, 'A', [5, 6], 3)
    const polyline = w.lwpolyline(
      to,
      owner,
      'A',
      [
        { x: 0, y: 0, bulge: 1 },
        { x: 2, y: 0 },
        { x: 2, y: 2 },
      ],
      true,
    )
    const hatch = w.hatch(to, owner, 'A', [
      {
        polyline: [
          { x: 0, y: 0 },
          { x: 4, y: 0 },
          { x: 4, y: 4 },
        ],
      },
      {
        edges: [
          {
            line: [
              [1, 1],
              [2, 1],
            ],
          },
          { arc: { center: [2, 2], radius: 1, start: 270, end: 90 } },
          {
            line: [
              [2, 3],
              [1, 1],
            ],
          },
        ],
      },
    ])
    const d = read(w)
    expect(shapeOf(byHandle(d, line), 'line')).toEqual({
      kind: 'line',
      a: { x: 1, y: 2, z: 3 },
      b: { x: 4, y: 5, z: 6 },
    })
    const a = shapeOf(byHandle(d, arc), 'arc')
    expect(a).toMatchObject({ center: { x: 1, y: 1, z: 0 }, radius: 2 })
    expect(a.start).toBeCloseTo(Math.PI / 6, 12)
    expect(a.end).toBeCloseTo((2 * Math.PI) / 3, 12)
    expect(shapeOf(byHandle(d, circle), 'circle')).toEqual({
      kind: 'circle',
      center: { x: 5, y: 6, z: 0 },
      radius: 3,
    })
    expect(shapeOf(byHandle(d, polyline), 'polyline')).toEqual({
      kind: 'polyline',
      vertices: [
        { x: 0, y: 0, z: 0, bulge: 1 },
        { x: 2, y: 0, z: 0, bulge: 0 },
        { x: 2, y: 2, z: 0, bulge: 0 },
      ],
      closed: true,
    })
    const h = shapeOf(byHandle(d, hatch), 'hatch')
    expect(h.solid).toBe(true)
    expect(h.loops).toHaveLength(2)
    expect(h.loops[0]).toEqual({
      kind: 'polyline',
      vertices: [
        { x: 0, y: 0, z: 0, bulge: 0 },
        { x: 4, y: 0, z: 0, bulge: 0 },
        { x: 4, y: 4, z: 0, bulge: 0 },
      ],
    })
    const edges = h.loops[1].kind === 'edges' ? h.loops[1].edges : []
    expect(edges.map((e) => e.kind)).toEqual(['line', 'arc', 'line'])
    expect(edges[1]).toMatchObject({ kind: 'arc', radius: 1, ccw: true })
    expect(edges[1].kind === 'arc' && edges[1].start).toBeCloseTo(1.5 * Math.PI, 12)
  })

  it('tells a pattern hatch from a solid one', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const square = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
    ]
    const solid = w.hatch(to, owner, '0', [{ polyline: square }])
    const pattern = w.hatch(to, owner, '0', [{ polyline: square }])
    // The writer writes solid fills: this one's 70 is made 0 (a pattern).
    const text = w
      .toString()
      .replace(new RegExp(`(\\n\\s*5\\n${pattern}\\n[\\s\\S]*?\\n\\s*70\\n)1\\n`), '$10\n')
    const d = read(text)
    expect(shapeOf(byHandle(d, solid), 'hatch').solid).toBe(true)
    expect(shapeOf(byHandle(d, pattern), 'hatch').solid).toBe(false)
  })

  it('gives ellipses, splines, 2D and 3D polylines, multilines, solids, traces and 3D faces', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const ellipse = w.ellipse(to, owner, '0', [1, 1], [2, 0], 0.5, 0.25, 1.5)
    const spline = w.spline(
      to,
      owner,
      '0',
      1,
      [0, 0, 1, 1],
      [
        [0, 0],
        [3, 4],
      ],
    )
    const polyline2d = w.polyline(
      to,
      owner,
      '0',
      [
        { x: 0, y: 0, bulge: 0.5 },
        { x: 1, y: 0 },
      ],
      true,
      false,
    )
    const polyline3d = w.polyline(
      to,
      owner,
      '0',
      [
        { x: 0, y: 0, z: 1 },
        { x: 1, y: 1, z: 2 },
      ],
      false,
      true,
    )
    const mline = w.mline(
      to,
      owner,
      '0',
      [
        [0, 0],
        [4, 0],
        [4, 3],
      ],
      true,
    )
    const corners = [10, 0, 20, 0, 30, 0, 11, 1, 21, 0, 31, 0, 12, 0, 22, 1, 32, 0, 13, 1, 23, 1]
    const solid = w.entity(to, owner, '0', 'SOLID', 'AcDbTrace', [...corners, 33, 0])
    const trace = w.entity(to, owner, '0', 'TRACE', 'AcDbTrace', [...corners, 33, 0])
    const face = w.entity(to, owner, '0', '3DFACE', 'AcDbFace', [
      ...[10, 0, 20, 0, 30, 0, 11, 1, 21, 0, 31, 0, 12, 0, 22, 1, 32, 0],
      ...[13, 0, 23, 1, 33, 0],
    ])
    const d = read(w)
    expect(shapeOf(byHandle(d, ellipse), 'ellipse')).toEqual({
      kind: 'ellipse',
      center: { x: 1, y: 1, z: 0 },
      major: { x: 2, y: 0, z: 0 },
      ratio: 0.5,
      start: 0.25,
      end: 1.5,
    })
    expect(shapeOf(byHandle(d, spline), 'spline').spline).toMatchObject({
      degree: 1,
      knots: [0, 0, 1, 1],
      control: [
        { x: 0, y: 0, z: 0 },
        { x: 3, y: 4, z: 0 },
      ],
    })
    expect(shapeOf(byHandle(d, polyline2d), 'polyline')).toEqual({
      kind: 'polyline',
      vertices: [
        { x: 0, y: 0, z: 0, bulge: 0.5 },
        { x: 1, y: 0, z: 0, bulge: 0 },
      ],
      closed: true,
    })
    expect(shapeOf(byHandle(d, polyline3d), 'polyline').vertices.map((v) => v.z)).toEqual([1, 2])
    expect(shapeOf(byHandle(d, mline), 'polyline')).toEqual({
      kind: 'polyline',
      vertices: [
        { x: 0, y: 0, z: 0, bulge: 0 },
        { x: 4, y: 0, z: 0, bulge: 0 },
        { x: 4, y: 3, z: 0, bulge: 0 },
      ],
      closed: true,
    })
    const square = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 0, z: 0 },
      { x: 0, y: 1, z: 0 },
      { x: 1, y: 1, z: 0 },
    ]
    expect(byHandle(d, solid)?.shape).toEqual({ kind: 'solid', corners: square })
    expect(byHandle(d, trace)?.shape).toEqual({ kind: 'solid', corners: square })
    // A triangle repeats its third corner: drawn as the three.
    expect(shapeOf(byHandle(d, face), 'polyline')).toEqual({
      kind: 'polyline',
      vertices: square.slice(0, 3).map((c) => ({ ...c, bulge: 0 })),
      closed: true,
    })
  })

  it('gives a helix as its spline', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const { degree, knots, control, shape } = HALF_TURN_HELIX
    const handle = w.withColour(3, () =>
      w.helix(to, owner, 'Springs', degree, knots, control, shape),
    )
    const d = read(w)
    const helix = byHandle(d, handle)
    expect(helix).toMatchObject({ layer: 'Springs', colour: 0x00ff00 })
    expect(shapeOf(helix, 'spline').spline.control).toEqual(HALF_TURN_HELIX_CONTROL)
  })

  it('reports text, and anything else it does not draw, with no shape', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const text = w.entity(to, owner, 'Notes', 'TEXT', 'AcDbText', [
      10,
      0,
      20,
      0,
      30,
      0,
      40,
      1,
      1,
      'Hi',
    ])
    const pipe = w.entity(to, owner, 'Pipes', 'ACME_PIPE', 'AcmePipe', [10, 0, 20, 0])
    const d = read(w)
    expect(d.picture.modelSpace).toEqual([
      { handle: text, layer: 'Notes', colour: 'bylayer', shape: null },
      { handle: pipe, layer: 'Pipes', colour: 'bylayer', shape: null },
    ])
  })

  it('reports every model-space entity once, in file order, and nothing from paper space', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
    const model = w.target('model')
    const paper = w.target('paper')
    const handles = [
      w.line(model.to, model.owner, '0', [0, 0], [1, 1]),
      w.insert(model.to, model.owner, '0', 'DOOR', [0, 0], { TAG: 'D1' }),
      w.entity(model.to, model.owner, '0', 'ACME_PIPE', 'AcmePipe', [10, 0, 20, 0]),
      w.polyline(
        model.to,
        model.owner,
        '0',
        [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
        ],
        false,
        false,
      ),
      w.circle(model.to, model.owner, '0', [0, 0], 1),
    ]
    w.line(paper.to, paper.owner, '0', [0, 0], [1, 1])
    const d = read(w)
    expect(d.picture.modelSpace.map((e) => e.handle)).toEqual(handles)
  })
})

describe('colours', () => {
  it('an entity of colour 1 is red; by layer and by block stay so; a true colour wins', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const p: [number, number] = [0, 0]
    const handles = [
      w.withColour(1, () => w.line(to, owner, '0', p, p)),
      w.line(to, owner, '0', p, p),
      w.withColour(256, () => w.line(to, owner, '0', p, p)),
      w.withColour(0, () => w.line(to, owner, '0', p, p)),
      w.withColour({ trueColour: 0x123456 }, () => w.circle(to, owner, '0', p, 1)),
    ]
    const d = read(w)
    expect(handles.map((h) => byHandle(d, h)?.colour)).toEqual([
      0xff0000,
      'bylayer',
      'bylayer',
      'byblock',
      0x123456,
    ])
  })

  it('layers give their colour (a true colour when they have one); off and frozen ones are hidden', () => {
    const w = new DxfWriter()
    w.layer('Walls', { colour: 1 })
    w.layer('Off', { colour: 3, off: true })
    w.layer('Frozen', { colour: 5, frozen: true })
    w.layer('Brand', { colour: 1, trueColour: 0xabcdef })
    const d = read(w)
    expect(Object.fromEntries(d.picture.layerColours)).toEqual({
      '0': 0xffffff,
      Walls: 0xff0000,
      Off: 0x00ff00,
      Frozen: 0x0000ff,
      Brand: 0xabcdef,
    })
    expect([...d.picture.hiddenLayers].sort()).toEqual(['Frozen', 'Off'])
  })
})

describe('block references and their definitions', () => {
  it('an insert gives its placement in radians, and its block is reported once with its base point', () => {
    const w = new DxfWriter()
    w.blockAt('DOOR', [5, 5, 0], (to, owner) => {
      w.line(to, owner, 'Doors', [5, 5], [6, 5])
      w.withColour(0, () => w.circle(to, owner, 'Doors', [5, 5], 1))
    })
    const { to, owner } = w.target('model')
    const first = w.entity(
      to,
      owner,
      'A',
      'INSERT',
      'AcDbBlockReference',
      insertPairs('DOOR', { x: 10, y: 20, z: 0 }, { scale: { x: 2, y: 3, z: 1 }, degrees: 90 }),
    )
    const second = w.insert(to, owner, 'A', 'DOOR', [0, 0])
    const d = read(w)
    expect(byHandle(d, first)).toMatchObject({ layer: 'A', colour: 'bylayer' })
    const s = shapeOf(byHandle(d, first), 'insert')
    expect(s).toMatchObject({
      definition: 'DOOR',
      position: { x: 10, y: 20, z: 0 },
      scale: { x: 2, y: 3, z: 1 },
      columns: 1,
      rows: 1,
    })
    expect(s.rotation).toBeCloseTo(Math.PI / 2, 12)
    expect(shapeOf(byHandle(d, second), 'insert')).toMatchObject({
      scale: { x: 1, y: 1, z: 1 },
      rotation: 0,
    })
    const block = d.picture.blocks.get('DOOR')
    expect(block?.base).toEqual({ x: 5, y: 5, z: 0 })
    expect(block?.entities.map((e) => [e.layer, e.colour, e.shape?.kind])).toEqual([
      ['Doors', 'bylayer', 'line'],
      ['Doors', 'byblock', 'circle'],
    ])
    expect([...d.picture.blocks.keys()]).toEqual(['DOOR'])
  })

  it('a MINSERT gives its grid', () => {
    const w = new DxfWriter()
    w.block('COLUMN', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.2))
    const { to, owner } = w.target('model')
    const handle = w.insert(to, owner, 'Grid', 'COLUMN', [1, 2], {}, { cols: 4, rows: 3 })
    const d = read(w)
    expect(shapeOf(byHandle(d, handle), 'insert')).toEqual({
      kind: 'insert',
      definition: 'COLUMN',
      position: { x: 1, y: 2, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
      rotation: 0,
      columns: 4,
      rows: 3,
      columnSpacing: 10,
      rowSpacing: 10,
    })
    expect(d.picture.blocks.get('COLUMN')?.entities).toHaveLength(1)
  })

  it('nested, anonymous and dimension blocks are reported; a block containing itself ends the walk', () => {
    const w = new DxfWriter()
    w.block('LEAF', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
    w.block('TREE', (to, owner) => {
      w.insert(to, owner, '0', 'LEAF', [0, 0])
      w.insert(to, owner, '0', 'TREE', [5, 0])
    })
    w.block('*U7', (to, owner) => w.line(to, owner, '0', [0, 0], [0, 1]))
    w.block('*D3', (to, owner) => w.line(to, owner, '0', [0, 0], [2, 0]))
    w.block('UNUSED', (to, owner) => w.line(to, owner, '0', [0, 0], [3, 0]))
    const { to, owner } = w.target('model')
    w.insert(to, owner, '0', 'TREE', [0, 0])
    w.insert(to, owner, '0', '*U7', [0, 0])
    const dimension = w.entity(to, owner, 'Dims', 'DIMENSION', 'AcDbDimension', [
      ...[2, '*D3', 10, 7, 20, 8, 30, 0, 11, 1, 21, 1, 31, 0, 70, 32],
    ])
    const d = read(w)
    expect([...d.picture.blocks.keys()]).toEqual(['TREE', '*U7', '*D3', 'LEAF'])
    expect(d.picture.blocks.get('TREE')?.entities.map((e) => e.shape)).toMatchObject([
      { kind: 'insert', definition: 'LEAF' },
      { kind: 'insert', definition: 'TREE', position: { x: 5, y: 0, z: 0 } },
    ])
    expect(byHandle(d, dimension)?.shape).toEqual({
      kind: 'insert',
      definition: '*D3',
      position: { x: 0, y: 0, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
      rotation: 0,
      columns: 1,
      rows: 1,
      columnSpacing: 0,
      rowSpacing: 0,
    })
  })

  it('a table is a reference to its graphics block, placed at the table along its direction', () => {
    const w = new DxfWriter()
    w.block('*T1', (to, owner) => w.line(to, owner, '0', [0, 0], [10, 0]))
    const { to, owner } = w.target('model')
    const handle = w.entity(to, owner, 'Tables', 'ACAD_TABLE', 'AcDbBlockReference', [
      ...[2, '*T1', 10, 5, 20, 6, 30, 0, 100, 'AcDbTable', 11, 0, 21, 1, 31, 0],
    ])
    const d = read(w)
    const s = shapeOf(byHandle(d, handle), 'insert')
    expect(s).toMatchObject({
      definition: '*T1',
      position: { x: 5, y: 6, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
    })
    expect(s.rotation).toBeCloseTo(Math.PI / 2, 12)
    expect(d.picture.blocks.get('*T1')?.entities).toHaveLength(1)
  })

  it('a reference to an attached drawing has no shape, and no contents are reported for it', () => {
    const w = new DxfWriter()
    w.xref('SITE', 'C:\\plans\\site.dwg')
    w.block('WITH_XREF', (to, owner) => w.insert(to, owner, '0', 'SITE', [0, 0]))
    const { to, owner } = w.target('model')
    const site = w.insert(to, owner, 'Xrefs', 'SITE', [10, 20])
    w.insert(to, owner, '0', 'WITH_XREF', [0, 0])
    const d = read(w)
    expect(byHandle(d, site)).toEqual({
      handle: site,
      layer: 'Xrefs',
      colour: 'bylayer',
      shape: null,
    })
    expect([...d.picture.blocks.keys()]).toEqual(['WITH_XREF'])
    expect(d.picture.blocks.get('WITH_XREF')?.entities[0].shape).toBeNull()
  })
})

describe('mirrored entities (extrusion 0, 0, −1) are given as seen from above', () => {
  it('an arc: x negated, its angles π − end … π − start', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const center = { x: 3, y: 1, z: 0 }
    const handle = w.entity(to, owner, '0', 'ARC', 'AcDbCircle', [
      ...[10, center.x, 20, center.y, 30, 0, 40, 2, ...MIRRORED],
      ...[100, 'AcDbArc', 50, 10, 51, 80],
    ])
    const d = read(w)
    const arc = shapeOf(byHandle(d, handle), 'arc')
    expect(arc.center).toEqual({ x: -3, y: 1, z: 0 })
    expect(arc.start).toBeCloseTo(100 * DEG, 12)
    expect(arc.end).toBeCloseTo(170 * DEG, 12)
    // Its ends are the object system's ends with x negated (start and end swapped).
    const mirror = (p: { x: number; y: number }) => ({ x: -p.x, y: p.y })
    expectClose(onArc(arc.center, 2, arc.start), mirror(onArc(center, 2, 80 * DEG)))
    expectClose(onArc(arc.center, 2, arc.end), mirror(onArc(center, 2, 10 * DEG)))
  })

  it('an arc across 0° and a whole ellipse keep their sweep', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const arc = w.entity(to, owner, '0', 'ARC', 'AcDbCircle', [
      ...[10, 0, 20, 0, 30, 0, 40, 1, ...MIRRORED, 100, 'AcDbArc', 50, 350, 51, 10],
    ])
    const ellipse = w.entity(to, owner, '0', 'ELLIPSE', 'AcDbEllipse', [
      ...[10, 0, 20, 0, 30, 0, 11, 2, 21, 0, 31, 0, ...MIRRORED, 40, 0.5, 41, 0, 42, 2 * Math.PI],
    ])
    const d = read(w)
    const a = shapeOf(byHandle(d, arc), 'arc')
    expect(a.start).toBeCloseTo(170 * DEG, 12)
    expect(a.end).toBeCloseTo(190 * DEG, 12)
    const e = shapeOf(byHandle(d, ellipse), 'ellipse')
    expect(e.start).toBe(0)
    expect(e.end).toBeCloseTo(2 * Math.PI, 12)
  })

  it('a circle and a bulged polyline', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const circle = w.entity(to, owner, '0', 'CIRCLE', 'AcDbCircle', [
      ...[10, 3, 20, 1, 30, 0, 40, 2, ...MIRRORED],
    ])
    const polyline = w.entity(to, owner, '0', 'LWPOLYLINE', 'AcDbPolyline', [
      ...[90, 2, 70, 0, 10, 1, 20, 2, 42, 0.5, 10, 3, 20, 4, ...MIRRORED],
    ])
    const d = read(w)
    expect(shapeOf(byHandle(d, circle), 'circle').center).toMatchObject({ x: -3, y: 1 })
    expect(shapeOf(byHandle(d, polyline), 'polyline').vertices).toMatchObject([
      { x: -1, y: 2, bulge: -0.5 },
      { x: -3, y: 4, bulge: 0 },
    ])
  })

  it('a hatch: its outline is the object system outline with x negated', () => {
    const paths = [
      {
        edges: [
          {
            line: [
              [0, 0],
              [3, 0],
            ] as [[number, number], [number, number]],
          },
          { arc: { center: [3, 1] as [number, number], radius: 1, start: 270, end: 90 } },
          {
            line: [
              [3, 2],
              [1, 2],
            ] as [[number, number], [number, number]],
          },
          {
            ellipse: {
              center: [1, 1] as [number, number],
              major: [0.5, 1] as [number, number],
              ratio: 0.5,
              start: 0,
              end: 90,
              ccw: true,
            },
          },
        ],
      },
      {
        edges: [
          {
            line: [
              [0, 0],
              [1, 0],
            ] as [[number, number], [number, number]],
          },
          // Clockwise: stored with its angles negated (360 − angle).
          {
            arc: { center: [1, 1] as [number, number], radius: 1, start: 90, end: 180, ccw: false },
          },
          {
            line: [
              [2, 1],
              [0, 0],
            ] as [[number, number], [number, number]],
          },
        ],
      },
    ]
    const plain = new DxfWriter()
    const model = plain.target('model')
    const handle = plain.hatch(model.to, model.owner, '0', paths)
    const mirroredText = plain
      .toString()
      .replace(/(\n\s*5\n[0-9A-F]+\n[\s\S]*?210\n0\n\s*220\n0\n\s*230\n)1\n/, '$1-1\n')
    const original = shapeOf(byHandle(read(plain), handle), 'hatch')
    const mirrored = shapeOf(byHandle(read(mirroredText), handle), 'hatch')
    expect(mirrored.loops).toHaveLength(2)
    mirrored.loops.forEach((loop, i) => {
      const expected = loopOutline(original.loops[i]).map((p) => ({ x: -p.x, y: p.y }))
      const actual = loopOutline(loop)
      expect(actual).toHaveLength(expected.length)
      for (const [j, p] of actual.entries()) expectClose(p, expected[j])
    })
  })

  it('an ellipse: the same points, its parameters −end … −start', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const handle = w.entity(to, owner, '0', 'ELLIPSE', 'AcDbEllipse', [
      ...[10, 1, 20, 1, 30, 0, 11, 2, 21, 0, 31, 0, ...MIRRORED, 40, 0.5, 41, 0.5, 42, 2],
    ])
    const d = read(w)
    const e = shapeOf(byHandle(d, handle), 'ellipse')
    expect(e).toMatchObject({ center: { x: 1, y: 1 }, major: { x: 2, y: 0 }, ratio: 0.5 })
    // Around (0, 0, −1) the minor axis is the major one turned clockwise: (0, −1).
    const objectPoint = (t: number) => ({ x: 1 + 2 * Math.cos(t), y: 1 - Math.sin(t) })
    const drawnPoint = (t: number) => ({ x: 1 + 2 * Math.cos(t), y: 1 + Math.sin(t) })
    expectClose(drawnPoint(e.start), objectPoint(2))
    expectClose(drawnPoint(e.end), objectPoint(0.5))
    expect(e.end - e.start).toBeCloseTo(1.5, 12)
  })

  it('an insert: its block lands where the object system puts it, with x negated', () => {
    const w = new DxfWriter()
    const base = { x: 1, y: 0.5, z: 0 }
    w.blockAt('B', [base.x, base.y, 0], (to, owner) => w.line(to, owner, '0', [0, 0], [2, 1]))
    const { to, owner } = w.target('model')
    const at = { x: 10, y: 4, z: 0 }
    const scale = { x: 2, y: 3, z: 1 }
    const degrees = 30
    const [columns, rows, columnSpacing, rowSpacing] = [3, 2, 7, 5]
    const handle = w.entity(to, owner, '0', 'INSERT', 'AcDbBlockReference', [
      ...insertPairs('B', at, { scale, degrees }),
      ...[70, columns, 71, rows, 44, columnSpacing, 45, rowSpacing, ...MIRRORED],
    ])
    const d = read(w)
    const s = shapeOf(byHandle(d, handle), 'insert')
    expect(d.picture.blocks.get('B')?.base).toEqual(base)
    const θ = degrees * DEG
    for (const p of [
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 1, z: 0 },
      { x: -1, y: 3, z: 0 },
    ]) {
      for (let col = 0; col < columns; col++) {
        for (let row = 0; row < rows; row++) {
          // In the object system: moved off the base, scaled, put in its cell, turned, placed.
          const x = (p.x - base.x) * scale.x + col * columnSpacing
          const y = (p.y - base.y) * scale.y + row * rowSpacing
          const ocs = {
            x: at.x + Math.cos(θ) * x - Math.sin(θ) * y,
            y: at.y + Math.sin(θ) * x + Math.cos(θ) * y,
          }
          expectClose(placed(s, base, p, col, row), { x: -ocs.x, y: ocs.y })
        }
      }
    }
  })
})

describe('a sample DXF', () => {
  it.each(['example_2018.dxf', 'example_2000.dxf'])(
    '%s: every handle its bill names is in the picture of model space',
    (name) => {
      const bytes = fixture(name)
      const d = readDxf(bytes, { picture: true })
      const boq = computeBoq(d, { fileName: name, fileBytes: bytes.byteLength })
      const billed = boq.bill.flatMap((line) => line.breakdown.flatMap((row) => row.handles))
      expect(billed.length).toBeGreaterThan(10)
      const drawn = d.picture.modelSpace.map((e) => e.handle)
      expect(new Set(drawn).size).toBe(drawn.length)
      expect(billed.filter((h) => !drawn.includes(h))).toEqual([])
      expect(d.picture.modelSpace.filter((e) => e.shape).length).toBeGreaterThan(billed.length / 2)
    },
  )
})
