import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { describe, expect, it } from 'vitest'
import { libredwgMemory, loadedDwgFixture, readDwgFixture } from '../../testing/boq/dwg-fixtures.ts'
import { fixture, fixtureNames } from '../../testing/boq/fixtures.ts'
import type { Drawing, DrawingEntity } from '../model/drawing.ts'
import { walkDwg } from './dwg-reader.ts'

function ofType<K extends DrawingEntity['type']>(drawing: Drawing, type: K) {
  return drawing.entities.filter((e): e is Extract<DrawingEntity, { type: K }> => e.type === type)
}

/** DXF group pairs of a text DXF. */
function dxfPairs(text: string): [string, string][] {
  const lines = text.split(/\r?\n/).map((line) => line.trim())
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < lines.length; i += 2) pairs.push([lines[i], lines[i + 1]])
  return pairs
}

/** Handle → type of the entities a DXF places in model space (owner: *Model_Space's record). */
function modelSpaceHandles(text: string): Map<string, string> {
  const pairs = dxfPairs(text)
  let modelSpace = ''
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i][0] !== '0' || pairs[i][1] !== 'BLOCK_RECORD') continue
    const record = pairs.slice(
      i + 1,
      pairs.findIndex((p, k) => k > i && p[0] === '0'),
    )
    const name = record.find((p) => p[0] === '2')?.[1]
    if (name?.toUpperCase() === '*MODEL_SPACE')
      modelSpace = record.find((p) => p[0] === '5')?.[1] ?? ''
  }
  const out = new Map<string, string>()
  let current: { type: string; handle?: string; owner?: string } | null = null
  let inGroup = false // 102 {ACAD_REACTORS … }: those 330s are not the owner
  const start = pairs.findIndex((p) => p[0] === '2' && p[1] === 'ENTITIES')
  for (const [code, value] of pairs.slice(start + 1)) {
    if (code === '0') {
      if (current?.handle && current.owner === modelSpace) out.set(current.handle, current.type)
      if (value === 'ENDSEC') break
      current = { type: value }
    } else if (code === '102') inGroup = value.startsWith('{')
    else if (current && code === '5') current.handle ??= value
    else if (current && code === '330' && !inGroup) current.owner ??= value
  }
  return out
}

describe('DWG entities', () => {
  it.each(fixtureNames('.dwg').filter((name) => name.startsWith('example_')))(
    '%s: its multiline is measured',
    async (name) => {
      const [mline] = ofType(await readDwgFixture(name), 'mline')
      // R13/R14 name the layer TAVOLO_3 (spaces were not allowed in names then).
      expect(mline.layer).toMatch(/^Tavolo[ _]3$/i)
      expect(mline).toMatchObject({ handle: '75C', closed: true, style: 'STANDARD' })
      expect(mline.vertices).toHaveLength(4)
      const perimeter = mline.vertices.reduce((sum, v, i, all) => {
        const w = all[(i + 1) % all.length]
        return sum + Math.hypot(w.x - v.x, w.y - v.y)
      }, 0)
      expect(perimeter).toBeCloseTo(1783.0778, 3)
    },
  )

  it('an open multiline is measured too (2000_TS1.dwg)', async () => {
    const [mline] = ofType(await readDwgFixture('2000_TS1.dwg'), 'mline')
    expect(mline).toMatchObject({ closed: false, style: 'STANDARD' })
    expect(mline.vertices).toHaveLength(2)
    expect(mline.vertices[1].x - mline.vertices[0].x).toBeCloseTo(3.51001, 5)
  })

  it('handles are the ones the DXF twin of the drawing has', async () => {
    const drawing = await readDwgFixture('example_2018.dwg')
    const dxf = modelSpaceHandles(new TextDecoder('latin1').decode(fixture('example_2018.dxf')))
    const handles = [...drawing.entities, ...drawing.inserts].map((e) => e.handle)
    expect(handles.length).toBeGreaterThan(30)
    for (const handle of handles) expect(handle).toMatch(/^[0-9A-F]+$/)
    expect(handles.filter((handle) => !dxf.has(handle))).toEqual([])
    expect(drawing.inserts.map((ref) => dxf.get(ref.handle))).toEqual(
      drawing.inserts.map(() => 'INSERT'),
    )
  })

  it('counts paper space entities without measuring them', async () => {
    expect((await readDwgFixture('example_2018.dwg')).paperSpaceEntities).toBe(2)
    expect((await readDwgFixture('2000_PolyLine2D.dwg')).paperSpaceEntities).toBe(7)
    expect((await readDwgFixture('2018_Dynblocks.dwg')).paperSpaceEntities).toBe(4)
  })

  it('a helix is read as its spline path', async () => {
    const { lib, data, version } = await loadedDwgFixture('example_2018.dwg')
    const splines = ofType(walkDwg(lib, data, version), 'spline')
    // No fixture has a helix: one spline is made to look like one (LibreDWG's object type).
    const modelSpace = lib.dwg_model_space_object(data)
    const fixedType = 16
    for (let obj = lib.get_first_owned_entity(modelSpace); obj; ) {
      if (lib.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_SPLINE) {
        libredwgMemory(lib).setUint32(obj + fixedType, T.DWG_TYPE_HELIX, true)
        break
      }
      obj = lib.get_next_owned_entity(modelSpace, obj)
    }
    const drawing = walkDwg(lib, data, version, { verify: true })
    const [helix] = ofType(drawing, 'helix')
    const { type: _, ...path } = helix
    const { type: __, ...spline } = splines.find((s) => s.handle === helix.handle) ?? splines[0]
    expect(path).toEqual(spline)
    expect(helix.control.length + helix.fit.length).toBeGreaterThan(0)
  })
})

describe('attached drawings (xrefs)', () => {
  /** No fixture attaches a drawing: a block record of 2018_Dynblocks.dwg is flagged as one. */
  async function withXref(flag: number): Promise<Drawing> {
    const { lib, data, version } = await loadedDwgFixture('2018_Dynblocks.dwg')
    const count = lib.dwg_get_num_objects(data)
    for (let i = 0; i < count; i++) {
      const obj = lib.dwg_get_object(data, i)
      if (lib.dwg_object_get_fixedtype(obj) !== T.DWG_TYPE_BLOCK_HEADER) continue
      const tio = lib.dwg_object_to_object_tio(obj)
      if (lib.dwg_dynapi_entity_data(tio, 'name') !== 'Bed - Queen') continue
      const at = tio + lib.dwg_dynapi_entity_field_offset(tio, 'flag')
      libredwgMemory(lib).setUint8(at, libredwgMemory(lib).getUint8(at) | flag)
    }
    return walkDwg(lib, data, version, { verify: true })
  }

  it('a reference to an xref is listed as one, not counted as a block', async () => {
    const drawing = await withXref(4)
    expect(drawing.inserts).toHaveLength(42)
    expect(drawing.inserts.some((ref) => ref.block === 'Bed - Queen')).toBe(false)
    expect(drawing.xrefs).toEqual([
      expect.objectContaining({ name: 'Bed - Queen', path: 'BED_QUEENSIZE', overlay: false }),
    ])
    const [xref] = drawing.xrefs
    expect(xref.handle).toMatch(/^[0-9A-F]+$/)
    expect(typeof xref.layer).toBe('string')
    expect(Number.isFinite(xref.x) && Number.isFinite(xref.y)).toBe(true)
  })

  it('an overlay says so', async () => {
    expect((await withXref(4 | 8)).xrefs).toEqual([
      expect.objectContaining({ name: 'Bed - Queen', overlay: true }),
    ])
  })

  it('the fixtures themselves attach none', async () => {
    for (const name of fixtureNames('.dwg')) expect((await readDwgFixture(name)).xrefs).toEqual([])
  })
})

describe('R11 (r11_ACEB10.dwg)', () => {
  it('names its block references and layers through the tables’ indexes', async () => {
    const drawing = await readDwgFixture('r11_ACEB10.dwg')
    expect(drawing.inserts).toHaveLength(19)
    expect([...drawing.skipped.keys()].filter((type) => type.startsWith('INSERT'))).toEqual([])
    // Each view of the part is a block on the layer of the same name.
    expect(drawing.inserts.find((ref) => ref.block === 'EB10-LEFT')?.layer).toBe('EB10-LEFT')
    expect(drawing.inserts.find((ref) => ref.block === 'LABEL')).toBeDefined()
    const layers = new Set(drawing.entities.map((e) => e.layer))
    expect(layers).toEqual(new Set(['BORDER', 'DIM', 'MOUNTINGKIT-EB4', 'MOUNTINGKIT-EB35DIN']))
  })

  it('states no units: R11 has no INSUNITS, whatever default the reader gives', async () => {
    expect((await readDwgFixture('r11_ACEB10.dwg')).insunits).toBe(0)
  })

  it('reads the vertices that follow each heavy polyline', async () => {
    const polylines = ofType(await readDwgFixture('r11_ACEB10.dwg'), 'polyline')
    expect(polylines).toHaveLength(8)
    expect(polylines.map((p) => p.vertices.length).sort()).toEqual([2, 2, 3, 3, 4, 4, 4, 4])
    expect(polylines.filter((p) => p.closed)).toHaveLength(4)
  })
})
