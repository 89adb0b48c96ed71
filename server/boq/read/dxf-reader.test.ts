import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { HALF_TURN_HELIX, HALF_TURN_HELIX_CONTROL } from '../../testing/boq/sample-helix.ts'
import { splineLength } from '../measure/curves/curves.ts'
import type { Drawing, DrawingEntity } from '../model/drawing.ts'
import { readDxf } from './dxf-reader.ts'
import { skipReason } from './entity-kinds.ts'

const read = (w: DxfWriter | string): Drawing =>
  readDxf(new TextEncoder().encode(typeof w === 'string' ? w : w.toString()))

const line = (w: DxfWriter, to: ReturnType<DxfWriter['target']>['to'], owner: string) =>
  w.line(to, owner, '0', [0, 0], [1, 0])

/** Debian's python3-ezdxf, to write DXF the way another library does (R12 among others). */
const PYTHON = '/usr/bin/python3'
const EZDXF_MISSING =
  'these tests write DXF with ezdxf: install it with `apt-get install python3-ezdxf` (Debian)'

/** Runs `body` with `doc` (an ezdxf drawing of `version`) and `msp`; returns the DXF text. */
function ezdxf(version: string, body: string): string {
  const script = [
    'import sys, ezdxf',
    `doc = ezdxf.new('${version}')`,
    'msp = doc.modelspace()',
    body,
    'doc.write(sys.stdout)',
  ].join('\n')
  const run = spawnSync(PYTHON, ['-c', script], { encoding: 'utf8', maxBuffer: 64 << 20 })
  if (run.error || /No module named .?ezdxf/.test(run.stderr)) throw new Error(EZDXF_MISSING)
  if (run.status !== 0) throw new Error(run.stderr)
  return run.stdout
}

/** The DXF without group 5 (handles) and 330 (owners), as old writers and many libraries give it. */
function withoutHandles(text: string): string {
  const lines = text.split(/\r?\n/)
  const out: string[] = []
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i].trim()
    if (code === '5' || code === '330') continue
    out.push(lines[i], lines[i + 1])
  }
  return `${out.join('\n')}\n`
}

function only<T extends DrawingEntity['type']>(d: Drawing, type: T) {
  const found = d.entities.filter((e) => e.type === type)
  expect(found).toHaveLength(1)
  return found[0] as Extract<DrawingEntity, { type: T }>
}

describe('dynamic block references', () => {
  function dynamicDrawing(): DxfWriter {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => line(w, to, owner))
    return w
  }

  it('take their real name from the anonymous block record (AcDbBlockRepBTag)', () => {
    const w = dynamicDrawing()
    w.block('*U5', (to, owner) => line(w, to, owner), 'DOOR')
    const { to, owner } = w.target('model')
    const handle = w.insert(to, owner, 'Doors', '*U5', [1, 2])
    const d = read(w)
    expect(d.inserts).toEqual([
      {
        block: 'DOOR',
        definition: '*U5',
        handle,
        layer: 'Doors',
        count: 1,
        x: 1,
        y: 2,
        attributes: [],
        properties: {},
      },
    ])
    expect([...d.nestedInserts.keys()]).toEqual(['*U5'])
  })

  it('take their real name from their extension dictionary when the record has none', () => {
    const w = dynamicDrawing()
    w.block('*U5', (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    w.insert(to, owner, 'Doors', '*U5', [0, 0], {}, undefined, {
      representation: { block: 'DOOR' },
    })
    // CRLF line ends, as AutoCAD and LibreDWG write them.
    const d = read(w.toString().replace(/\n/g, '\r\n'))
    expect(d.inserts.map((r) => [r.block, r.definition])).toEqual([['DOOR', '*U5']])
    expect([...d.nestedInserts.keys()]).toEqual(['*U5'])
  })

  it('keep their anonymous name, counted, when neither route names them', () => {
    const w = dynamicDrawing()
    w.block('*U5', (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    w.insert(to, owner, 'Doors', '*U5', [0, 0])
    w.insert(to, owner, 'Doors', '*U5', [0, 0], {}, undefined, { representation: {} })
    const d = read(w)
    expect(d.inserts.map((r) => [r.block, r.definition])).toEqual([
      ['*U5', '*U5'],
      ['*U5', '*U5'],
    ])
    expect(d.skipped.size).toBe(0)
  })

  it('carry their visibility state', () => {
    const w = dynamicDrawing()
    w.block('*U5', (to, owner) => line(w, to, owner), 'DOOR')
    w.block('*U6', (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    w.insert(to, owner, '0', '*U5', [0, 0], {}, undefined, {
      representation: { visibility: 'Open 30º' },
    })
    w.insert(to, owner, '0', '*U6', [0, 0], {}, undefined, {
      representation: { block: 'DOOR', visibility: 'Closed' },
    })
    w.insert(to, owner, '0', 'DOOR', [0, 0])
    const d = read(w)
    expect(d.inserts.map((r) => [r.block, r.definition, r.properties])).toEqual([
      ['DOOR', '*U5', { visibility: 'Open 30º' }],
      ['DOOR', '*U6', { visibility: 'Closed' }],
      ['DOOR', 'DOOR', {}],
    ])
  })

  it('nested in a block are resolved and keyed by their own definition', () => {
    const w = dynamicDrawing()
    w.block('*U5', (to, owner) => line(w, to, owner), 'DOOR')
    w.block('*U6', (to, owner) => line(w, to, owner))
    w.block('ROOM', (to, owner) => {
      w.insert(to, owner, '0', '*U5', [0, 0])
      w.insert(to, owner, '0', '*U6', [0, 0], {}, undefined, {
        representation: { block: 'DOOR', visibility: 'Open' },
      })
    })
    const { to, owner } = w.target('model')
    w.insert(to, owner, '0', 'ROOM', [0, 0])
    const d = read(w)
    const nested = d.nestedInserts.get('ROOM') ?? []
    expect(nested.map((r) => [r.block, r.definition, r.properties])).toEqual([
      ['DOOR', '*U5', {}],
      ['DOOR', '*U6', { visibility: 'Open' }],
    ])
    expect([...d.nestedInserts.keys()].sort()).toEqual(['*U5', '*U6', 'ROOM'])
  })
})

describe('block references', () => {
  it('to graphics blocks (*X, *D, *T) are listed as skipped, not counted', () => {
    const w = new DxfWriter()
    for (const name of ['*X1', '*D2', '*T3']) w.block(name, (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    for (const name of ['*X1', '*D2', '*T3']) w.insert(to, owner, '0', name, [0, 0])
    const d = read(w)
    expect(d.inserts).toEqual([])
    expect([...d.skipped.keys()].sort()).toEqual(['INSERT *D', 'INSERT *T', 'INSERT *X'])
    expect(d.entityCounts.INSERT).toBe(3)
  })

  it('to attached drawings go to xrefs, not to the counted references', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => line(w, to, owner))
    w.xref('SITE', 'C:\\plans\\site.dwg')
    w.xref('GRID', '..\\grid.dwg', true)
    w.block('WITH_XREF', (to, owner) => w.insert(to, owner, '0', 'SITE', [0, 0]))
    const { to, owner } = w.target('model')
    const site = w.insert(to, owner, 'Xrefs', 'SITE', [10, 20])
    const grid = w.insert(to, owner, 'Xrefs', 'GRID', [0, 0])
    w.insert(to, owner, '0', 'DOOR', [0, 0])
    w.insert(to, owner, '0', 'WITH_XREF', [0, 0])
    const d = read(w)
    expect(d.xrefs).toEqual([
      {
        name: 'SITE',
        path: 'C:\\plans\\site.dwg',
        overlay: false,
        handle: site,
        layer: 'Xrefs',
        x: 10,
        y: 20,
      },
      {
        name: 'GRID',
        path: '..\\grid.dwg',
        overlay: true,
        handle: grid,
        layer: 'Xrefs',
        x: 0,
        y: 0,
      },
    ])
    expect(d.inserts.map((r) => r.block)).toEqual(['DOOR', 'WITH_XREF'])
    expect(d.nestedInserts.get('WITH_XREF')).toEqual([])
    expect(d.entityCounts.INSERT).toBe(4)
  })

  it('take the ATTRIBs that follow them up to SEQEND, with or without owner handles', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => line(w, to, owner))
    w.block('PAIR', (to, owner) => {
      w.insert(to, owner, '0', 'DOOR', [0, 0], { TAG: 'inner' }, undefined, {
        attributeOwners: false,
      })
    })
    const { to, owner } = w.target('model')
    const noOwners = { attributeOwners: false }
    w.insert(to, owner, '0', 'DOOR', [0, 0], { TAG: 'D1', FIRE: 'EI30' }, undefined, noOwners)
    w.insert(to, owner, '0', 'DOOR', [0, 0])
    w.insert(to, owner, '0', 'DOOR', [0, 0], { TAG: 'D2' }, undefined, noOwners)
    w.insert(to, owner, '0', 'DOOR', [0, 0], { TAG: 'D3' })
    w.insert(to, owner, '0', 'PAIR', [0, 0])
    const d = read(w)
    expect(d.inserts.map((r) => r.attributes)).toEqual([
      [
        { tag: 'TAG', value: 'D1' },
        { tag: 'FIRE', value: 'EI30' },
      ],
      [],
      [{ tag: 'TAG', value: 'D2' }],
      [{ tag: 'TAG', value: 'D3' }],
      [],
    ])
    expect(d.nestedInserts.get('PAIR')?.[0].attributes).toEqual([{ tag: 'TAG', value: 'inner' }])
  })

  it('in a block that contains itself do not loop, and say so once', () => {
    const w = new DxfWriter()
    w.block('SELF', (to, owner) => {
      line(w, to, owner)
      w.insert(to, owner, '0', 'SELF', [1, 0])
    })
    w.block('B', (to, owner) => w.insert(to, owner, '0', 'C', [0, 0]))
    w.block('C', (to, owner) => w.insert(to, owner, '0', 'B', [0, 0]))
    const { to, owner } = w.target('model')
    w.insert(to, owner, '0', 'SELF', [0, 0])
    w.insert(to, owner, '0', 'SELF', [5, 0])
    w.insert(to, owner, '0', 'B', [0, 0])
    const d = read(w)
    expect(d.inserts).toHaveLength(3)
    expect(d.warnings.filter((m) => m.includes('contains itself'))).toEqual([
      'Block "SELF" contains itself; the reference that closes the loop is counted but not followed.',
      'Block "B" contains itself; the reference that closes the loop is counted but not followed.',
    ])
    expect(d.nestedInserts.get('SELF')?.map((r) => r.block)).toEqual(['SELF'])
    expect(d.nestedInserts.get('C')?.map((r) => r.block)).toEqual(['B'])
  })
})

describe('entities', () => {
  it('MLINE is measured along its vertices, with its closed flag and style', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const handle = w.mline(
      to,
      owner,
      'Walls',
      [
        [0, 0],
        [4, 0],
        [4, 3],
      ],
      true,
      'WALL200',
    )
    w.mline(
      to,
      owner,
      'Walls',
      [
        [0, 0],
        [1, 0],
      ],
      false,
    )
    const d = read(w)
    const [closed, open] = d.entities
    expect(closed).toEqual({
      type: 'mline',
      layer: 'Walls',
      handle,
      vertices: [
        { x: 0, y: 0, z: 0 },
        { x: 4, y: 0, z: 0 },
        { x: 4, y: 3, z: 0 },
      ],
      closed: true,
      style: 'WALL200',
    })
    expect(open).toMatchObject({ type: 'mline', closed: false, style: 'STANDARD' })
    expect(d.entityCounts.MLINE).toBe(2)
    expect(d.skipped.size).toBe(0)
  })

  it('HELIX is read as its spline and its own parameters', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    const { degree, knots, control, shape } = HALF_TURN_HELIX
    const handle = w.helix(to, owner, 'Springs', degree, knots, control, shape)
    const d = read(w)
    expect(only(d, 'helix')).toEqual({
      type: 'helix',
      layer: 'Springs',
      handle,
      degree: 3,
      knots,
      control: HALF_TURN_HELIX_CONTROL,
      weights: [],
      fit: [],
      startTangent: null,
      endTangent: null,
      parameters: {
        axisBase: { x: 0, y: 0, z: 0 },
        start: { x: 1, y: 0, z: 0 },
        axis: { x: 0, y: 0, z: 1 },
        radius: 1,
        turns: 0.5,
        turnHeight: 3,
        handedness: 1,
        constraint: 1,
      },
    })
    expect(d.entityCounts.HELIX).toBe(1)
  })

  it('types the parser does not know are counted and listed as not measured', () => {
    const w = new DxfWriter()
    const model = w.target('model')
    const paper = w.target('paper')
    const corners = [10, 0, 20, 0, 30, 0, 11, 1, 21, 0, 31, 0, 12, 1, 22, 1, 32, 0]
    w.entity(model.to, model.owner, '0', 'TRACE', 'AcDbTrace', [...corners, 13, 0, 23, 1, 33, 0])
    w.entity(model.to, model.owner, '0', 'PDFUNDERLAY', 'AcDbUnderlayReference', [10, 0, 20, 0])
    w.entity(model.to, model.owner, '0', 'EXTRUDEDSURFACE', 'AcDbModelerGeometry', [70, 1])
    w.entity(model.to, model.owner, '0', 'ACME_PIPE', 'AcmePipe', [10, 0, 20, 0])
    line(w, model.to, model.owner)
    w.entity(paper.to, paper.owner, '0', 'TRACE', 'AcDbTrace', corners)
    const d = read(w)
    expect(d.entityCounts).toEqual({
      TRACE: 1,
      PDFUNDERLAY: 1,
      EXTRUDEDSURFACE: 1,
      ACME_PIPE: 1,
      LINE: 1,
    })
    for (const type of ['TRACE', 'PDFUNDERLAY', 'EXTRUDEDSURFACE', 'ACME_PIPE'])
      expect(d.skipped.get(type)).toEqual({ count: 1, reason: skipReason(type) })
    expect(d.entities.map((e) => e.type)).toEqual(['line'])
    expect(d.paperSpaceEntities).toBe(1)
    expect(d.warnings).toEqual([])
  })

  it('every measured entity and reference carries its handle', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    const handles = [
      w.lwpolyline(
        to,
        owner,
        '0',
        [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
        ],
        false,
      ),
      w.insert(to, owner, '0', 'DOOR', [0, 0]),
    ]
    line(w, to, owner)
    const d = read(w)
    expect(d.entities[0].handle).toBe(handles[0])
    expect(d.inserts[0].handle).toBe(handles[1])
    for (const e of [...d.entities, ...d.inserts]) expect(e.handle).toMatch(/^[0-9A-F]+$/)
  })
})

describe('paper space and layouts', () => {
  it('are counted, not measured', () => {
    const w = new DxfWriter()
    w.block('*Paper_Space0', (to, owner) => {
      line(w, to, owner)
      line(w, to, owner)
    })
    w.block('DOOR', (to, owner) => line(w, to, owner))
    const paper = w.target('paper')
    line(w, paper.to, paper.owner)
    w.insert(paper.to, paper.owner, '0', 'DOOR', [0, 0], { TAG: 'D1' })
    const model = w.target('model')
    line(w, model.to, model.owner)
    const d = read(w)
    expect(d.paperSpaceEntities).toBe(4)
    expect(d.entityCounts).toEqual({ LINE: 1 })
    expect(d.inserts).toEqual([])
  })

  it('an empty model space gives a warning, not a silent empty drawing', () => {
    const w = new DxfWriter()
    const paper = w.target('paper')
    line(w, paper.to, paper.owner)
    const d = read(w)
    expect(d.entities).toEqual([])
    expect(d.warnings).toEqual([expect.stringContaining('Model space is empty')])
  })
})

/** DXF from group code / value pairs, one pair a line each as `code value`. */
const dxf = (pairs: string): string =>
  `${pairs
    .trim()
    .split('\n')
    .flatMap((l) => {
      const [code, ...value] = l.trim().split(' ')
      return [code.padStart(3, ' '), value.join(' ')]
    })
    .join('\n')}\n`

describe('R12 and minimal DXF', () => {
  it('an R12 DXF (no handles, no block records, ENDBLK without subclass) gives its drawing', () => {
    const d = read(
      dxf(`
        0 SECTION
        2 HEADER
        9 $ACADVER
        1 AC1009
        0 ENDSEC
        0 SECTION
        2 BLOCKS
        0 BLOCK
        8 0
        2 DOOR
        70 2
        10 0
        20 0
        0 LINE
        8 0
        10 0
        20 0
        11 900
        21 0
        0 ATTDEF
        8 0
        10 0
        20 0
        40 1
        1 
        3 Type
        2 TYPE
        70 0
        0 ENDBLK
        8 0
        0 ENDSEC
        0 SECTION
        2 ENTITIES
        0 LINE
        8 Walls
        10 0
        20 0
        11 3000
        21 0
        0 INSERT
        8 Doors
        66 1
        2 DOOR
        10 5
        20 0
        0 ATTRIB
        8 Doors
        10 5
        20 0
        40 1
        1 D-01
        2 TYPE
        70 0
        0 SEQEND
        8 Doors
        0 INSERT
        8 Doors
        2 DOOR
        10 9
        20 0
        0 LINE
        67 1
        8 0
        10 0
        20 0
        11 1
        21 1
        0 ENDSEC
        0 EOF
      `),
    )
    expect(d.version).toBe('AC1009')
    expect(d.entityCounts).toEqual({ LINE: 1, INSERT: 2 })
    expect(d.entities).toEqual([
      {
        type: 'line',
        layer: 'Walls',
        handle: '',
        a: { x: 0, y: 0, z: 0 },
        b: { x: 3000, y: 0, z: 0 },
      },
    ])
    expect(d.inserts.map((r) => [r.block, r.handle, r.x, r.attributes])).toEqual([
      ['DOOR', '', 5, [{ tag: 'TYPE', value: 'D-01' }]],
      ['DOOR', '', 9, []],
    ])
    expect(d.paperSpaceEntities).toBe(1)
    expect(d.warnings).toEqual([])
  })

  it('a DXF of only an ENTITIES section is read', () => {
    const d = read(
      dxf(`
        0 SECTION
        2 ENTITIES
        0 CIRCLE
        8 Columns
        10 0
        20 0
        40 0.5
        0 ENDSEC
        0 EOF
      `),
    )
    expect(d.entities).toEqual([
      { type: 'circle', layer: 'Columns', handle: '', center: { x: 0, y: 0, z: 0 }, radius: 0.5 },
    ])
  })
})

describe('text encoding', () => {
  it('a binary DXF is refused with a clear error', () => {
    const bytes = new TextEncoder().encode('AutoCAD Binary DXF\r\n\u001a\u0000')
    expect(() => readDxf(bytes)).toThrow(/Binary DXF is not supported/)
  })

  it('a DXF that is not UTF-8 is read in its code page', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => line(w, to, owner))
    const { to, owner } = w.target('model')
    w.insert(to, owner, 'Türen', 'DOOR', [0, 0], { ANGLE: 'Open 30º' })
    const text = w.toString().replace('AC1015', 'AC1015\n  9\n$DWGCODEPAGE\n  3\nANSI_1252')
    const d = readDxf(new Uint8Array(Buffer.from(text, 'latin1')))
    expect(d.inserts[0].layer).toBe('Türen')
    expect(d.inserts[0].attributes).toEqual([{ tag: 'ANGLE', value: 'Open 30º' }])
  })
})

describe('DXF written by ezdxf', () => {
  const r12 = () =>
    ezdxf(
      'R12',
      `
door = doc.blocks.new('DOOR')
door.add_line((0, 0), (900, 0))
door.add_attdef('TYPE', (0, 0))
msp.add_line((0, 0), (3000, 0), dxfattribs={'layer': 'Walls'})
msp.add_polyline2d([(0, 0), (1000, 0), (1000, 1000), (0, 1000)], close=True, dxfattribs={'layer': 'Slabs'})
msp.add_circle((0, 0), 1)
for i, t in enumerate(['A', 'B']):
    ref = msp.add_blockref('DOOR', (i, 0), dxfattribs={'layer': 'Doors'})
    ref.add_attrib('TYPE', t)
msp.add_blockref('DOOR', (9, 0), dxfattribs={'layer': 'Doors'})
msp.add_trace([(0, 0), (1, 0), (1, 1), (0, 1)])
doc.layouts.get('Layout1').add_line((0, 0), (1, 1))
`,
    )

  it('R12 gives its drawing: model space by group 67, attributes by their order', () => {
    const d = read(withoutHandles(r12()))
    expect(d.version).toBe('AC1009')
    expect(d.insunits).toBe(0)
    expect(d.entityCounts).toEqual({ LINE: 1, POLYLINE_2D: 1, CIRCLE: 1, INSERT: 3, TRACE: 1 })
    expect(d.entities.map((e) => [e.type, e.layer, e.handle])).toEqual([
      ['line', 'Walls', ''],
      ['polyline', 'Slabs', ''],
      ['circle', '0', ''],
    ])
    expect(d.inserts.map((r) => [r.block, r.layer, r.handle, r.attributes])).toEqual([
      ['DOOR', 'Doors', '', [{ tag: 'TYPE', value: 'A' }]],
      ['DOOR', 'Doors', '', [{ tag: 'TYPE', value: 'B' }]],
      ['DOOR', 'Doors', '', []],
    ])
    expect(d.skipped.get('TRACE')?.count).toBe(1)
    expect(d.paperSpaceEntities).toBe(1)
    expect(d.warnings).toEqual([])
  })

  it('R12 with handles keeps them', () => {
    const d = read(r12())
    for (const e of [...d.entities, ...d.inserts]) expect(e.handle).toMatch(/^[0-9A-F]+$/)
  })

  it('a HELIX from ezdxf measures as the helix it is', () => {
    const d = read(
      ezdxf('R2018', "msp.add_helix(radius=10, pitch=5, turns=2, dxfattribs={'layer': 'H'})"),
    )
    const helix = only(d, 'helix')
    expect(helix.layer).toBe('H')
    const expected = 2 * Math.hypot(2 * Math.PI * 10, 5)
    expect(Math.abs(splineLength(helix) - expected) / expected).toBeLessThan(1e-3)
  })

  it('an MLINE from ezdxf is measured', () => {
    const d = read(ezdxf('R2018', 'msp.add_mline([(0, 0), (10, 0), (10, 10)], close=True)'))
    expect(only(d, 'mline')).toMatchObject({ closed: true, style: 'Standard' })
    expect(only(d, 'mline').vertices).toHaveLength(3)
  })

  it('underlays and surfaces the parser drops are still counted', () => {
    const d = read(
      ezdxf(
        'R2018',
        `
msp.add_underlay(doc.add_underlay_def('plan.pdf', fmt='pdf'), insert=(0, 0))
msp.add_extruded_surface()
msp.add_trace([(0, 0), (1, 0), (1, 1), (0, 1)])
msp.add_line((0, 0), (1, 0))
`,
      ),
    )
    expect(d.entityCounts).toEqual({ PDFUNDERLAY: 1, EXTRUDEDSURFACE: 1, TRACE: 1, LINE: 1 })
    expect([...d.skipped.keys()].sort()).toEqual(['EXTRUDEDSURFACE', 'PDFUNDERLAY', 'TRACE'])
  })
})
