import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { describe, expect, it } from 'vitest'
import { libredwgMemory, loadedDwgFixture } from '../../testing/boq/dwg-fixtures.ts'
import { helixLength, splineLength } from '../measure/curves/curves.ts'
import { computeBoq } from '../measure/quantities.ts'
import type { Drawing } from '../model/drawing.ts'
import { walkDwg } from './dwg-reader.ts'

/** Emscripten's own functions on the module, for memory the test hands to LibreDWG. */
type Module = {
  stringToNewUTF8(text: string): number
  _emscripten_builtin_malloc(n: number): number
}

/** Dwg_Object (wasm32): fixedtype at 16, then the pointers to its name and its DXF name. */
const FIXEDTYPE = 16
const NAME = 20
const DXFNAME = 24

/** The helix written into LibreDWG's HELIX fields: 2 turns of radius 3, 1.5 apart, up +Z. */
const HELIX = {
  base: [5, 6, 1],
  start: [8, 6, 1],
  axis: [0, 0, 2],
  radius: 3,
  turns: 2,
  pitch: 1.5,
}

/**
 * example_2018.dwg with one model-space spline turned into a real HELIX in LibreDWG's memory (no
 * fixture has one): the object is named and typed HELIX, and its struct is a HELIX's (LibreDWG
 * lays a helix out as a spline's fields followed by its own) holding `HELIX`.
 */
async function withHelix(): Promise<Drawing> {
  const { lib, data, version } = await loadedDwgFixture('example_2018.dwg')
  const module = (lib as unknown as { wasmInstance: Module }).wasmInstance
  const memory = libredwgMemory(lib)
  const modelSpace = lib.dwg_model_space_object(data)
  let obj = lib.get_first_owned_entity(modelSpace)
  while (obj && lib.dwg_object_get_fixedtype(obj) !== T.DWG_TYPE_SPLINE)
    obj = lib.get_next_owned_entity(modelSpace, obj)
  expect(obj).toBeTruthy()
  const spline = lib.dwg_object_to_entity_tio(obj)
  const offsets = (fields: string[]) =>
    fields.map((f) => lib.dwg_dynapi_entity_field_offset(spline, f))
  const splineFields = ['degree', 'knots', 'num_knots', 'ctrl_pts', 'num_ctrl_pts', 'fit_pts']
  const asSpline = offsets(splineFields)
  const name = module.stringToNewUTF8('HELIX')
  memory.setUint32(obj + NAME, name, true)
  memory.setUint32(obj + DXFNAME, name, true)
  memory.setUint32(obj + FIXEDTYPE, T.DWG_TYPE_HELIX, true)
  // The spline's fields sit where they did; the helix's own come after them all.
  expect(offsets(splineFields)).toEqual(asSpline)
  const helixFields = ['major_version', 'axis_base_pt', 'start_pt', 'axis_vector', 'radius']
  const splineSize = Math.min(...offsets(helixFields))
  expect(splineSize).toBeGreaterThan(Math.max(...asSpline))
  const at = (field: string) => {
    const offset = lib.dwg_dynapi_entity_field_offset(spline, field)
    expect(offset, field).toBeGreaterThanOrEqual(splineSize)
    return offset
  }
  const size = at('constraint_type') + 8
  const helix = module._emscripten_builtin_malloc(size)
  new Uint8Array(memory.buffer, helix, size).fill(0)
  new Uint8Array(memory.buffer, helix, splineSize).set(
    new Uint8Array(memory.buffer, spline, splineSize),
  )
  const point = (field: string, [x, y, z]: number[]) => {
    for (const [i, v] of [x, y, z].entries()) memory.setFloat64(helix + at(field) + 8 * i, v, true)
  }
  point('axis_base_pt', HELIX.base)
  point('start_pt', HELIX.start)
  point('axis_vector', HELIX.axis)
  memory.setFloat64(helix + at('radius'), HELIX.radius, true)
  memory.setFloat64(helix + at('turns'), HELIX.turns, true)
  memory.setFloat64(helix + at('turn_height'), HELIX.pitch, true)
  memory.setUint8(helix + at('handedness'), 1)
  memory.setUint8(helix + at('constraint_type'), 2)
  // The entity's pointer to its struct (Dwg_Object_Entity.tio) now leads to the HELIX.
  const entity = lib.dwg_object_to_entity(obj)
  let slot = -1
  for (let k = 0; k < 64 && slot < 0; k += 4)
    if (memory.getUint32(entity + k, true) === spline) slot = entity + k
  expect(slot).toBeGreaterThan(0)
  memory.setUint32(slot, helix, true)
  expect(lib.dwg_object_to_entity_tio(obj)).toBe(helix)
  return walkDwg(lib, data, version, { verify: true })
}

describe("a DWG helix measured from LibreDWG's HELIX fields", () => {
  it('reads its axis, radius, turns and turn height, and measures the helix they describe', async () => {
    const drawing = await withHelix()
    const helixes = drawing.entities.filter((e) => e.type === 'helix')
    expect(helixes).toHaveLength(1)
    const [helix] = helixes
    expect(helix.parameters).toEqual({
      axisBase: { x: 5, y: 6, z: 1 },
      start: { x: 8, y: 6, z: 1 },
      axis: { x: 0, y: 0, z: 2 },
      radius: 3,
      turns: 2,
      turnHeight: 1.5,
      handedness: 1,
      constraint: 2,
    })
    // Its path is still the spline it was made from.
    expect(helix.fit.length + helix.control.length).toBeGreaterThan(0)
    const exact = 2 * Math.hypot(2 * Math.PI * 3, 1.5)
    expect(Math.abs(helixLength(helix) - exact) / exact).toBeLessThan(1e-9)
    expect(Math.abs(splineLength(helix) - exact) / exact).toBeGreaterThan(1e-3)
    // …and the bill says so.
    const boq = computeBoq(drawing, { fileName: 'helix.dwg', fileBytes: 1 })
    const row = boq.lengths.find((l) => l.kind === 'helix')
    expect(Math.abs((row?.length ?? 0) - exact) / exact).toBeLessThan(1e-9)
  })
})
