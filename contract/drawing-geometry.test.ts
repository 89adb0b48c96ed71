import { describe, expect, it } from 'vitest'
import {
  arcBounds,
  decodeDrawnGeometry,
  decodeGeometry,
  encodeGeometry,
  GEOMETRY_ARRAYS,
} from './drawing-geometry.ts'
import { GeometryHandles, handleNumber } from './geometry-handles.ts'
import { drawnGeometryOf, geometryOf } from './testing/drawing-geometry.ts'

/** Bytes as version 1 wrote them: every handle as text in the header, no handle numbers. */
function versionOne(geometry: ReturnType<typeof geometryOf>): Uint8Array {
  const { origin, bounds, handles, colours } = geometry
  const lengths = Object.fromEntries(
    GEOMETRY_ARRAYS.map(({ name }) => [name, geometry[name].length]),
  )
  const header = new TextEncoder().encode(
    JSON.stringify({ origin, bounds, handles, colours, lengths }),
  )
  const arraysAt = Math.ceil((12 + header.length) / 4) * 4
  const arrays = GEOMETRY_ARRAYS.map(({ name }) => geometry[name])
  const bytes = new Uint8Array(arrays.reduce((sum, array) => sum + array.byteLength, arraysAt))
  bytes.set(new TextEncoder().encode('BOQG'), 0)
  new DataView(bytes.buffer).setUint32(4, 1, true)
  new DataView(bytes.buffer).setUint32(8, header.length, true)
  bytes.set(header, 12)
  let at = arraysAt
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at)
    at += array.byteLength
  }
  return bytes
}

describe('drawing geometry', () => {
  const geometry = geometryOf({
    handles: ['1F', '2A0'],
    colours: [0xff0000, 0x00ff00],
    origin: [1000, -50],
    paths: [{ points: [0, 0, 10, 0, 10, 5] }, { points: [1, 1, 2, 2], owner: 1, colour: 1 }],
    arcs: [{ x: 3, y: 4, radius: 2, start: 0.5, sweep: 1, owner: 1 }],
    triangles: [{ points: [0, 0, 1, 0, 0, 1], colour: 1 }],
  })

  it('reads back what it wrote, arrays and header alike', () => {
    const read = decodeGeometry(encodeGeometry(geometry))
    expect(read).toEqual(geometry)
    expect(read.pathStarts).toEqual(new Uint32Array([0, 3, 5]))
  })

  it('sends plain hex handles as numbers, any other as its text, and reads each back as it was', () => {
    const odd = geometryOf({ handles: ['1F', 'FFFFFFFF', '100000000', 'a1', '01', '', '0', 'X'] })
    const bytes = encodeGeometry(odd)
    expect(decodeGeometry(bytes).handles).toEqual(odd.handles)
    const drawn = decodeDrawnGeometry(bytes)
    expect([...drawn.handles.numbers]).toEqual([0x1f, 0xffffffff, 0, 0, 0, 0, 0, 0])
    expect([...drawn.handles.texts]).toEqual([
      [2, '100000000'],
      [3, 'a1'],
      [4, '01'],
      [5, ''],
      [7, 'X'],
    ])
    // No handle is in the header as text but those.
    const header = new TextDecoder().decode(
      bytes.subarray(12, 12 + new DataView(bytes.buffer).getUint32(8, true)),
    )
    expect(header).not.toContain('"1F"')
  })

  it('reads the drawing view’s form: the same arrays, the handles as numbers', () => {
    expect(decodeDrawnGeometry(encodeGeometry(geometry))).toEqual(
      drawnGeometryOf({
        handles: ['1F', '2A0'],
        colours: [0xff0000, 0x00ff00],
        origin: [1000, -50],
        paths: [{ points: [0, 0, 10, 0, 10, 5] }, { points: [1, 1, 2, 2], owner: 1, colour: 1 }],
        arcs: [{ x: 3, y: 4, radius: 2, start: 0.5, sweep: 1, owner: 1 }],
        triangles: [{ points: [0, 0, 1, 0, 0, 1], colour: 1 }],
      }),
    )
  })

  it('still reads version 1, kept by jobs recorded before handles were sent as numbers', () => {
    expect(decodeGeometry(versionOne(geometry))).toEqual(geometry)
    expect(decodeDrawnGeometry(versionOne(geometry)).handles.toArray()).toEqual(['1F', '2A0'])
  })

  it('reads bytes that do not start on a multiple of four', () => {
    const bytes = encodeGeometry(geometry)
    const shifted = new Uint8Array(bytes.length + 1)
    shifted.set(bytes, 1)
    expect(decodeGeometry(shifted.subarray(1))).toEqual(geometry)
  })

  it('says what is wrong with bytes that are not geometry, of another version, or cut short', () => {
    expect(() => decodeGeometry(new TextEncoder().encode('AC1032 not this'))).toThrow(
      'Not drawing geometry.',
    )
    const other = encodeGeometry(geometry)
    new DataView(other.buffer).setUint32(4, 99, true)
    expect(() => decodeGeometry(other)).toThrow(/version 99/)
    const bytes = encodeGeometry(geometry)
    expect(() => decodeGeometry(bytes.subarray(0, bytes.length - 4))).toThrow('cut short')
    expect(() => decodeGeometry(bytes.subarray(0, 20))).toThrow('cut short')
  })

  it('bounds an arc by its ends and the quarter turns its sweep passes, either way round', () => {
    const box = (start: number, sweep: number) => {
      const xs: number[] = []
      const ys: number[] = []
      arcBounds(10, 20, 2, start, sweep, (x, y) => {
        xs.push(x)
        ys.push(y)
      })
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map((v) =>
        Number(v.toFixed(9)),
      )
    }
    // From east round past north to west: the top of the circle, not its bottom.
    expect(box(0, Math.PI)).toEqual([8, 20, 12, 22])
    expect(box(Math.PI, -Math.PI)).toEqual([8, 20, 12, 22])
    // A whole turn, from anywhere.
    expect(box(1, 2 * Math.PI)).toEqual([8, 18, 12, 22])
    // A sliver passing no quarter turn: its ends alone.
    expect(box(0.1, 0.2)).toEqual(
      [
        10 + 2 * Math.cos(0.3),
        20 + 2 * Math.sin(0.1),
        10 + 2 * Math.cos(0.1),
        20 + 2 * Math.sin(0.3),
      ].map((v) => Number(v.toFixed(9))),
    )
  })
})

describe('geometry handles', () => {
  it('takes as a number only hex as readers write a handle: upper case, no leading zero, 32 bits', () => {
    expect(['0', '1F', 'FFFFFFFF'].map(handleNumber)).toEqual([0, 0x1f, 0xffffffff])
    expect(['', '01F', '1f', '100000000', 'G1', ' 1F'].map(handleNumber)).toEqual(
      Array(6).fill(undefined),
    )
  })

  it('gives each owner its handle as it was written', () => {
    const handles = ['A', 'a', '', '00A', '123456789']
    const held = GeometryHandles.of(handles)
    expect(held.length).toBe(5)
    expect(handles.map((_, owner) => held.at(owner))).toEqual(handles)
    expect(held.toArray()).toEqual(handles)
  })
})
