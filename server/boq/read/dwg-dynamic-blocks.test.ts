import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import type { Drawing, InsertRef } from '../model/drawing.ts'
import { readDwg, walkDwg } from './dwg-reader.ts'
import { createReader } from './libredwg.ts'

const DYNBLOCKS = '2018_Dynblocks.dwg'
const VERSION = 'AC1032'

/** The seven anonymous references of the fixture: handle → definition, real name, visibility. */
const DYNAMIC = [
  ['BFD0', '*U20', 'alteZZa', 'AlteZZa [tOp]'],
  ['BFD8', '*U22', 'alteZZa', 'Honda [Right]'],
  ['C145', '*U24', 'Trees - Imperial', 'Palm (Plan)'],
  ['C14C', '*U26', 'Toilet - Imperial', 'Elongated (Plan)'],
  ['C15A', '*U28', 'Door - Imperial', 'Open 30º'],
  ['C174', '*U31', 'Door Elevation - Imperial', undefined],
  ['C17F', '*U33', 'Aluminum Window (Elevation) - Imperial', undefined],
] as const

/**
 * The numeric dynamic properties of the fixture's references, as their parameters name them:
 * the door's two linear parameters, the window's two, the toilet's rotation (degrees).
 */
const NUMERIC: Record<string, Record<string, string>> = {
  C14C: { Angle: '0' },
  C15A: { 'Door Size': '40', 'Wall Thickness': '5' },
  C17F: { 'Window Width': '36', 'Window Height': '36' },
}

async function read(options: Parameters<typeof readDwg>[3] = {}): Promise<Drawing> {
  return readDwg(await createReader(), fixture(DYNBLOCKS), VERSION, options)
}

function byHandle(drawing: Drawing): Map<string, InsertRef> {
  return new Map(drawing.inserts.map((ref) => [ref.handle, ref]))
}

describe('dynamic blocks of a DWG (2018_Dynblocks.dwg)', () => {
  it('keeps all 43 model-space references, the anonymous ones under their real names', async () => {
    const drawing = await read({ verify: true })
    expect(drawing.inserts).toHaveLength(43)
    expect(drawing.entityCounts.INSERT).toBe(43)
    expect([...drawing.skipped.keys()].filter((type) => type.includes('INSERT'))).toEqual([])
    expect(drawing.inserts.filter((ref) => ref.block.startsWith('*'))).toEqual([])
    const refs = byHandle(drawing)
    for (const [handle, definition, block] of DYNAMIC) {
      expect(refs.get(handle)).toMatchObject({ block, definition })
    }
  })

  it.each([
    ['the anonymous records’ EED', ['eed'] as const],
    ['the references’ extension dictionaries', ['xdict'] as const],
  ])('finds every real name through %s alone', async (_, routes) => {
    const refs = byHandle(await read({ dynamicRoutes: routes }))
    for (const [handle, definition, block] of DYNAMIC) {
      expect(refs.get(handle)).toMatchObject({ block, definition })
    }
    for (const [handle, values] of Object.entries(NUMERIC))
      expect(refs.get(handle)?.properties).toMatchObject(values)
  })

  it('counts a reference whose dynamic block is not found under its anonymous name', async () => {
    const drawing = await read({ dynamicRoutes: [] })
    expect(drawing.inserts).toHaveLength(43)
    const refs = byHandle(drawing)
    for (const [handle, definition] of DYNAMIC) {
      expect(refs.get(handle)).toMatchObject({ block: definition, definition })
    }
  })

  it('reads the visibility state and the numeric properties of each dynamic reference', async () => {
    const refs = byHandle(await read({ verify: true }))
    for (const [handle, , , visibility] of DYNAMIC) {
      expect(refs.get(handle)?.properties).toEqual({
        ...(visibility === undefined ? {} : { visibility }),
        ...NUMERIC[handle],
      })
    }
    const plain = [...refs.values()].filter((ref) => ref.block === ref.definition)
    expect(plain.every((ref) => Object.keys(ref.properties).length === 0)).toBe(true)
  })

  it('gives the values the stretched geometry of each anonymous copy shows', async () => {
    const shapes = await anonymousShapes(['C15A', 'C17F'])
    // The door leaf and its swing arcs are as long as the door; the wall's end lines as thick.
    const door = shapes.get('C15A') ?? []
    const leaf = door.find((s) => s.type === 'LWPOLYLINE')
    expect((leaf?.maxX ?? 0) - (leaf?.minX ?? 0)).toBeCloseTo(40)
    expect(door.filter((s) => s.type === 'ARC').map((s) => s.radius)).toEqual([40, 40, 40, 40])
    expect(door.filter((s) => s.type === 'LINE').map((s) => s.length)).toEqual([
      expect.closeTo(5),
      expect.closeTo(5),
    ])
    // The window's outer frame is its width by its height.
    const frames = (shapes.get('C17F') ?? []).filter((s) => s.type === 'LWPOLYLINE')
    const outer = frames.find((s) => s.minX === 0 && s.minY === 0)
    expect([outer?.maxX, outer?.maxY]).toEqual([36, 36])
  })

  it('keys nested references by the anonymous definition, not by the dynamic block', async () => {
    const drawing = await read()
    // Both references of alteZZa have their own copy, each with ten references inside.
    expect(drawing.nestedInserts.get('*U20')).toHaveLength(10)
    expect(drawing.nestedInserts.get('*U22')).toHaveLength(10)
    expect(drawing.nestedInserts.has('alteZZa')).toBe(false)
  })

  it('a block that contains itself is read once and reported once', async () => {
    const lib = await createReader()
    lib.FS.writeFile('/loop.dwg', fixture(DYNBLOCKS))
    const { data } = lib.dwg_read_file('/loop.dwg')
    // Point every reference inside *U20 at *U20 itself, through the top-level reference's link.
    const wasm = lib as unknown as {
      wasmInstance: { HEAPU8: Uint8Array }
    }
    const view = new DataView(wasm.wasmInstance.HEAPU8.buffer)
    const modelSpace = lib.dwg_model_space_object(data)
    let loopRef = 0
    let header = 0
    for (let obj = lib.get_first_owned_entity(modelSpace); obj; ) {
      if (lib.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_INSERT) {
        const tio = lib.dwg_object_to_entity_tio(obj)
        const ref = lib.dwg_dynapi_entity_data<number>(tio, 'block_header')
        if (lib.dwg_obj_get_handle_value(obj) === 0xbfd0n) {
          loopRef = ref
          header = lib.dwg_ref_get_object(ref)
        }
      }
      obj = lib.get_next_owned_entity(modelSpace, obj)
    }
    expect(header).not.toBe(0)
    let redirected = 0
    for (let obj = lib.get_first_owned_entity(header); obj; ) {
      if (lib.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_INSERT) {
        const tio = lib.dwg_object_to_entity_tio(obj)
        view.setUint32(tio + lib.dwg_dynapi_entity_field_offset(tio, 'block_header'), loopRef, true)
        redirected++
      }
      obj = lib.get_next_owned_entity(header, obj)
    }
    expect(redirected).toBe(10)

    const drawing = walkDwg(lib, data, VERSION)
    const inside = drawing.nestedInserts.get('*U20') ?? []
    expect(inside).toHaveLength(10)
    expect(inside.every((ref) => ref.definition === '*U20' && ref.block === 'alteZZa')).toBe(true)
    expect(drawing.warnings.filter((w) => w.includes('contains itself'))).toEqual([
      'Block "alteZZa" contains itself; the reference that closes the loop is counted but not followed.',
    ])
  })
})

type Shape = {
  type: string
  radius?: number
  length?: number
  minX?: number
  minY?: number
  maxX?: number
  maxY?: number
}

/** The lines, arcs and polylines (their extents) of the blocks the given references place. */
async function anonymousShapes(handles: string[]): Promise<Map<string, Shape[]>> {
  const lib = await createReader()
  lib.FS.writeFile('/shapes.dwg', fixture(DYNBLOCKS))
  const { data } = lib.dwg_read_file('/shapes.dwg')
  const view = new DataView(
    (lib as unknown as { wasmInstance: { HEAPU8: Uint8Array } }).wasmInstance.HEAPU8.buffer,
  )
  type P = { x: number; y: number }
  const out = new Map<string, Shape[]>()
  const modelSpace = lib.dwg_model_space_object(data)
  for (let obj = lib.get_first_owned_entity(modelSpace); obj; ) {
    const handle = (lib.dwg_obj_get_handle_value(obj) ?? 0n).toString(16).toUpperCase()
    if (handles.includes(handle)) {
      const tio = lib.dwg_object_to_entity_tio(obj)
      const header = lib.dwg_ref_get_object(lib.dwg_dynapi_entity_data<number>(tio, 'block_header'))
      const shapes: Shape[] = []
      for (
        let e = lib.get_first_owned_entity(header);
        e;
        e = lib.get_next_owned_entity(header, e)
      ) {
        const etio = lib.dwg_object_to_entity_tio(e)
        const type = lib.dwg_object_get_dxfname(e)
        const field = <V>(name: string) => lib.dwg_dynapi_entity_data<V>(etio, name)
        if (type === 'ARC') shapes.push({ type, radius: field<number>('radius') })
        if (type === 'LINE') {
          const [a, b] = [field<P>('start'), field<P>('end')]
          shapes.push({ type, length: Math.hypot(b.x - a.x, b.y - a.y) })
        }
        if (type === 'LWPOLYLINE') {
          const points = field<number>('points')
          const xs: number[] = []
          const ys: number[] = []
          for (let i = 0; i < field<number>('num_points'); i++) {
            xs.push(view.getFloat64(points + i * 16, true))
            ys.push(view.getFloat64(points + i * 16 + 8, true))
          }
          const [minX, maxX] = [Math.min(...xs), Math.max(...xs)].map(
            (n) => Math.round(n * 1e9) / 1e9,
          )
          const [minY, maxY] = [Math.min(...ys), Math.max(...ys)].map(
            (n) => Math.round(n * 1e9) / 1e9,
          )
          shapes.push({ type, minX, minY, maxX, maxY })
        }
      }
      out.set(handle, shapes)
    }
    obj = lib.get_next_owned_entity(modelSpace, obj)
  }
  return out
}
