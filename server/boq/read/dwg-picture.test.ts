import { type LibreDwgEx, Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { describe, expect, it } from 'vitest'
import { libredwgMemory, loadedDwgFixture, readDwgFixture } from '../../testing/boq/dwg-fixtures.ts'
import { fixtureNames } from '../../testing/boq/fixtures.ts'
import { normalAngle } from '../measure/curves/curves.ts'
import { computeBoq } from '../measure/quantities.ts'
import type { Drawing } from '../model/drawing.ts'
import type { PictureEntity, Shape } from '../model/picture.ts'
import type { Point } from '../model/primitives.ts'
import { aciColour } from './colours.ts'
import { walkDwg } from './dwg-reader.ts'

/** A DWG fixture read as the worker reads it for the geometry: picture asked for, checks on. */
const readPictured = (name: string) => readDwgFixture(name, { picture: true })

/** The model-space entity (struct) of a handle, found through the binding's own calls. */
function modelSpaceTio(lib: LibreDwgEx, data: number, handle: string): number {
  const modelSpace = lib.dwg_model_space_object(data)
  for (let obj = lib.get_first_owned_entity(modelSpace); obj; ) {
    if ((lib.dwg_obj_get_handle_value(obj) ?? 0n).toString(16).toUpperCase() === handle)
      return lib.dwg_object_to_entity_tio(obj)
    obj = lib.get_next_owned_entity(modelSpace, obj)
  }
  throw new Error(`no model-space entity ${handle}`)
}

/** Every handle the bill names (bill lines' breakdowns): model-space entities and references. */
function billHandles(drawing: Drawing): string[] {
  const boq = computeBoq(drawing, { fileName: 'x.dwg', fileBytes: 1 })
  return boq.bill.flatMap((line) => line.breakdown.flatMap((row) => row.handles))
}

function byHandle(entities: PictureEntity[]): Map<string, PictureEntity> {
  return new Map(entities.map((e) => [e.handle, e]))
}

function shapeOf<K extends Shape['kind']>(
  entity: PictureEntity | undefined,
  kind: K,
): Extract<Shape, { kind: K }> {
  expect(entity?.shape?.kind).toBe(kind)
  return entity?.shape as Extract<Shape, { kind: K }>
}

const degrees = (d: number) => (d * Math.PI) / 180

function expectPoint(actual: Point, expected: [number, number, number?]): void {
  expect(actual.x).toBeCloseTo(expected[0], 6)
  expect(actual.y).toBeCloseTo(expected[1], 6)
  expect(actual.z).toBeCloseTo(expected[2] ?? 0, 6)
}

/** Every insert shape of the picture: in model space and in block contents. */
function inserts(drawing: Drawing): Extract<Shape, { kind: 'insert' }>[] {
  const { modelSpace, blocks } = drawing.picture
  return [...modelSpace, ...[...blocks.values()].flatMap((block) => block.entities)]
    .map((e) => e.shape)
    .filter((shape): shape is Extract<Shape, { kind: 'insert' }> => shape?.kind === 'insert')
}

describe('the picture of a DWG', () => {
  it.each(fixtureNames('.dwg'))(
    '%s: every model-space entity once, every one the bill names among them',
    async (name) => {
      const drawing = await readPictured(name)
      const { modelSpace } = drawing.picture
      const handles = modelSpace.map((e) => e.handle)
      expect(new Set(handles).size).toBe(handles.length)
      const counted = Object.values(drawing.entityCounts).reduce((sum, n) => sum + n, 0)
      expect(modelSpace).toHaveLength(counted)
      const drawn = new Set(handles)
      const named = billHandles(drawing)
      expect(named.filter((handle) => !drawn.has(handle))).toEqual([])
    },
  )

  it.each(fixtureNames('.dwg').filter((name) => name !== 'r11_ACEB10.dwg'))(
    '%s: every drawn reference places a definition whose contents are there, with their layers’ colours',
    async (name) => {
      const drawing = await readPictured(name)
      const { blocks, layerColours, modelSpace } = drawing.picture
      for (const insert of inserts(drawing)) {
        expect(blocks.get(insert.definition)?.entities.length ?? 0).toBeGreaterThan(0)
      }
      const entities = [...modelSpace, ...[...blocks.values()].flatMap((b) => b.entities)]
      const layers = new Set(entities.map((e) => e.layer))
      expect([...layers].filter((layer) => !layerColours.has(layer))).toEqual([])
    },
  )

  it('gives shapes as the DXF twin of the drawing has them (example_2018.dwg)', async () => {
    const drawing = await readPictured('example_2018.dwg')
    const entities = byHandle(drawing.picture.modelSpace)
    const line = shapeOf(entities.get('8B'), 'line')
    expectPoint(line.a, [370.8586116534307, 730.6303035220437])
    expectPoint(line.b, [450.0397564202603, 619.219273076899])
    const arc = shapeOf(entities.get('90'), 'arc')
    expectPoint(arc.center, [1061.049489167742, 1142.369513054377])
    expect(arc.radius).toBeCloseTo(830.6389483702103, 6)
    expect(arc.start).toBeCloseTo(degrees(264.9225334366026), 9)
    expect(arc.end).toBeCloseTo(degrees(117.2958904559565), 9)
    const solid = shapeOf(entities.get('4EF'), 'solid')
    const corners: [number, number][] = [
      [8858.2164341895, 4156.5230788956],
      [9365.5401113022, 4241.0303489235],
      [9471.2325206174, 3924.1281668995],
      [8815.9394845134, 3818.4941062248],
    ]
    for (const [i, corner] of solid.corners.entries()) expectPoint(corner, corners[i])
    const face = shapeOf(entities.get('2D7'), 'polyline')
    expect(face.closed).toBe(true)
    expectPoint(face.vertices[0], [-54.05474532926746, 11789.64909083308, 1])
    expectPoint(face.vertices[2], [-473.7587524534901, 10344.68927305872, 1])
    const ellipse = shapeOf(entities.get('170'), 'ellipse')
    expectPoint(ellipse.center, [3532.16682102557, 2904.260916516109])
    expectPoint(ellipse.major, [-1220.865643219909, 355.8017603696389])
    expect(ellipse.ratio).toBeCloseTo(0.5120328285529597, 9)
    expect(shapeOf(entities.get('24F'), 'hatch').solid).toBe(false) // pattern ANGLE
    const insert = shapeOf(entities.get('756'), 'insert')
    expect(insert).toMatchObject({ definition: 'bloko', columns: 1, rows: 1 })
    expectPoint(insert.position, [0, 0])
    expectPoint(insert.scale, [3256.517756985835, -1843.492018676836, 3256.517756985835])
    expect(insert.rotation).toBeCloseTo(degrees(311.3439199910583), 9)
    expect(entities.get('8B')).toMatchObject({ layer: 'Tavolo 3', colour: 'bylayer' })
  })

  it('gives the shapes the bill measured (example_2018.dwg)', async () => {
    const drawing = await readPictured('example_2018.dwg')
    const entities = byHandle(drawing.picture.modelSpace)
    const measured = drawing.entities.filter((e) => e.type === 'line' || e.type === 'arc')
    expect(measured.length).toBeGreaterThan(5)
    for (const entity of measured) {
      const drawn = entities.get(entity.handle)
      expect(drawn?.layer).toBe(entity.layer)
      if (entity.type === 'line')
        expect(drawn?.shape).toEqual({ kind: 'line', a: entity.a, b: entity.b })
      if (entity.type === 'arc') {
        expect(drawn?.shape).toMatchObject({
          radius: entity.radius,
          start: entity.start,
          end: entity.end,
        })
      }
    }
  })

  it('draws each release of one drawing the same', async () => {
    const releases = fixtureNames('.dwg').filter((name) => name.startsWith('example_'))
    const reference = byHandle((await readPictured('example_2018.dwg')).picture.modelSpace)
    for (const name of releases) {
      const entities = byHandle((await readPictured(name)).picture.modelSpace)
      for (const handle of ['8B', '90', '4EF', '170', '2D7']) {
        expect(entities.get(handle)?.shape, `${name} ${handle}`).toEqual(
          reference.get(handle)?.shape,
        )
      }
      // R13/R14 kept block names in capitals.
      const insert = shapeOf(entities.get('756'), 'insert')
      expect({ ...insert, definition: insert.definition.toLowerCase() }).toEqual(
        reference.get('756')?.shape,
      )
    }
  })

  it('gives colours: an entity’s index or true colour, layers’ colours and which are hidden', async () => {
    const sample = byHandle((await readPictured('sample_2018.dwg')).picture.modelSpace)
    expect(sample.get('90')?.colour).toBe(0x00ff00) // colour index 3
    expect(sample.get('91')?.colour).toBe('bylayer')
    const hatches = byHandle((await readPictured('2004_HatchG.dwg')).picture.modelSpace)
    expect(hatches.get('28D')?.colour).toBe(0x1ae464) // a true colour, as LibreDWG reads it
    expect(hatches.get('29F')?.colour).toBe(aciColour(112))
    // Both are gradient fills, drawn filled.
    expect(shapeOf(hatches.get('29F'), 'hatch').solid).toBe(true)
    const example = (await readPictured('example_2018.dwg')).picture
    expect(example.layerColours.get('Tavolo 2')).toBe(0xffff00) // index 2
    expect(example.layerColours.get('Tavolo 3')).toBe(0x00ffff) // index 4
    expect(example.hiddenLayers.size).toBe(0)
    const gh209 = (await readPictured('2010_gh209_1.dwg')).picture
    expect(gh209.layerColours.get('Border')).toBe(0xff00ff) // index 6
    expect(gh209.layerColours.get('Work')).toBe(0x0000ff) // index 5
    // Frozen and locked in the DXF twin (flags 5).
    expect([...(await readPictured('example_2000.dwg')).picture.hiddenLayers]).toEqual([
      'ADSK_SYSTEM_LIGHTS',
    ])
  })

  it('draws dynamic references’ anonymous blocks and dimensions’ graphics (2018_Dynblocks.dwg)', async () => {
    const drawing = await readPictured('2018_Dynblocks.dwg')
    const { blocks, modelSpace } = drawing.picture
    const entities = byHandle(modelSpace)
    for (const [handle, definition] of [
      ['BFD0', '*U20'],
      ['C145', '*U24'],
      ['C15A', '*U28'],
      ['C17F', '*U33'],
    ]) {
      expect(shapeOf(entities.get(handle), 'insert').definition).toBe(definition)
      expect(blocks.get(definition)?.entities.length ?? 0).toBeGreaterThan(0)
    }
    // *U20 holds references of its own: their definitions are drawn too.
    const nested = blocks.get('*U20')?.entities.filter((e) => e.shape?.kind === 'insert') ?? []
    expect(nested.length).toBeGreaterThan(0)
    // Its 12 linear dimensions: each places its own *D block where it is, as it is.
    const graphics = modelSpace
      .map((e) => e.shape)
      .filter((s): s is Extract<Shape, { kind: 'insert' }> => s?.kind === 'insert')
      .filter((s) => s.definition.startsWith('*D'))
    expect(drawing.entityCounts.DIMENSION_LINEAR).toBe(12)
    expect(new Set(graphics.map((s) => s.definition)).size).toBe(12)
    for (const shape of graphics) {
      expect(shape).toMatchObject({ position: { x: 0, y: 0, z: 0 }, scale: { x: 1, y: 1, z: 1 } })
      expect(shape.rotation).toBe(0)
      expect(blocks.get(shape.definition)?.entities.length ?? 0).toBeGreaterThan(0)
    }
  })

  it('turns entities mirrored by their extrusion into world coordinates', async () => {
    const { lib, data, version } = await loadedDwgFixture('example_2018.dwg')
    const plain = byHandle(walkDwg(lib, data, version, { picture: true }).picture.modelSpace)
    // No fixture has a mirrored arc or reference: two are turned over (extrusion 0,0,−1).
    for (const handle of ['90', '756']) {
      const tio = modelSpaceTio(lib, data, handle)
      const at = tio + lib.dwg_dynapi_entity_field_offset(tio, 'extrusion')
      libredwgMemory(lib).setFloat64(at + 16, -1, true)
    }
    const mirrored = byHandle(
      walkDwg(lib, data, version, { verify: true, picture: true }).picture.modelSpace,
    )
    const arc = shapeOf(plain.get('90'), 'arc')
    const turned = shapeOf(mirrored.get('90'), 'arc')
    expectPoint(turned.center, [-arc.center.x, arc.center.y, -arc.center.z])
    expect(turned.start).toBeCloseTo(normalAngle(Math.PI - arc.end), 9)
    expect(turned.end).toBeCloseTo(normalAngle(Math.PI - arc.start), 9)
    const insert = shapeOf(plain.get('756'), 'insert')
    const flipped = shapeOf(mirrored.get('756'), 'insert')
    expectPoint(flipped.scale, [-insert.scale.x, insert.scale.y, -insert.scale.z])
    expectPoint(flipped.position, [-insert.position.x, insert.position.y, -insert.position.z])
    expect(flipped.rotation).toBeCloseTo(normalAngle(-insert.rotation), 9)
  })

  it('cuts a block that places itself: the reference closing the loop draws nothing', async () => {
    const { lib, data, version } = await loadedDwgFixture('2018_Dynblocks.dwg')
    // BFD0 places *U20, which holds references of its own: the first is made to place *U20.
    const tio = modelSpaceTio(lib, data, 'BFD0')
    const field = lib.dwg_dynapi_entity_field_offset(tio, 'block_header')
    const ref = libredwgMemory(lib).getUint32(tio + field, true)
    const record = lib.dwg_ref_get_object(ref)
    let looped = ''
    for (let obj = lib.get_first_owned_entity(record); obj; ) {
      if (lib.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_INSERT) {
        const inner = lib.dwg_object_to_entity_tio(obj)
        libredwgMemory(lib).setUint32(inner + field, ref, true)
        looped = (lib.dwg_obj_get_handle_value(obj) ?? 0n).toString(16).toUpperCase()
        break
      }
      obj = lib.get_next_owned_entity(record, obj)
    }
    const { picture } = walkDwg(lib, data, version, { verify: true, picture: true })
    const contents = byHandle(picture.blocks.get('*U20')?.entities ?? [])
    expect(contents.has(looped)).toBe(true)
    expect(contents.get(looped)?.shape).toBeNull()
    expect(shapeOf(byHandle(picture.modelSpace).get('BFD0'), 'insert').definition).toBe('*U20')
  })
})
