import { describe, expect, it } from 'vitest'
import { arcBounds, decodeGeometry, encodeGeometry } from './drawing-geometry.ts'
import { geometryOf } from './testing/drawing-geometry.ts'

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
