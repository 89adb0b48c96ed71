import { describe, expect, it } from 'vitest'
import { dxfWithoutText } from './dxf-without-text'

/** A DXF from its group code / value pairs, with this line ending. */
const dxf = (pairs: [number, string][], newline = '\n') =>
  `${pairs.map(([code, value]) => `${String(code).padStart(3)}${newline}${value}`).join(newline)}${newline}`

const bytesOf = (text: string) => new TextEncoder().encode(text).buffer
const textOf = (bytes: ArrayBuffer) => new TextDecoder().decode(bytes)

const header: [number, string][] = [
  [0, 'SECTION'],
  [2, 'HEADER'],
  [9, '$ACADVER'],
  [1, 'AC1032'],
  // A header value that reads like an entity name is not an entity.
  [9, '$TEXTSTYLE'],
  [7, 'TEXT'],
  [0, 'ENDSEC'],
  [0, 'SECTION'],
  [2, 'TABLES'],
  [0, 'TABLE'],
  [2, 'STYLE'],
  [0, 'STYLE'],
  [2, 'Standard'],
  [0, 'ENDTAB'],
  [0, 'ENDSEC'],
]
const line: [number, string][] = [
  [0, 'LINE'],
  [5, '1A'],
  [8, 'Walls'],
  [10, '0'],
  [20, '0'],
  [11, '10'],
  [21, '0'],
]
const text: [number, string][] = [
  [0, 'TEXT'],
  [5, '1B'],
  [8, 'Notes'],
  [1, 'Kitchén'],
]
const insertWithAttribute: [number, string][] = [
  [0, 'INSERT'],
  [5, '1C'],
  [66, '1'],
  [2, 'door'],
  [0, 'ATTRIB'],
  [5, '1D'],
  [1, 'D-01'],
  [0, 'SEQEND'],
  [5, '1E'],
]

describe('dxfWithoutText', () => {
  it('drops text entities and attributes from model space and from blocks, keeping the rest byte for byte', () => {
    const input = dxf([
      ...header,
      [0, 'SECTION'],
      [2, 'BLOCKS'],
      [0, 'BLOCK'],
      [2, 'door'],
      [0, 'ARC'],
      [5, '2A'],
      [0, 'ATTDEF'],
      [5, '2B'],
      [0, 'ENDBLK'],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'ENTITIES'],
      ...line,
      ...text,
      ...insertWithAttribute,
      [0, 'MTEXT'],
      [5, '1F'],
      [0, 'OLE2FRAME'],
      [5, '20'],
      [0, 'ENDSEC'],
      [0, 'EOF'],
    ])
    const expected = dxf([
      ...header,
      [0, 'SECTION'],
      [2, 'BLOCKS'],
      [0, 'BLOCK'],
      [2, 'door'],
      [0, 'ARC'],
      [5, '2A'],
      [0, 'ENDBLK'],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'ENTITIES'],
      ...line,
      [0, 'INSERT'],
      [5, '1C'],
      [66, '1'],
      [2, 'door'],
      [0, 'SEQEND'],
      [5, '1E'],
      [0, 'ENDSEC'],
      [0, 'EOF'],
    ])
    expect(textOf(dxfWithoutText(bytesOf(input)))).toBe(expected)
  })

  it('reads CRLF files and keeps their line endings', () => {
    const input = dxf([[0, 'SECTION'], [2, 'ENTITIES'], ...text, ...line, [0, 'ENDSEC']], '\r\n')
    const expected = dxf([[0, 'SECTION'], [2, 'ENTITIES'], ...line, [0, 'ENDSEC']], '\r\n')
    expect(textOf(dxfWithoutText(bytesOf(input)))).toBe(expected)
  })

  it('gives a drawing without text back as it was', () => {
    const input = bytesOf(dxf([...header, [0, 'SECTION'], [2, 'ENTITIES'], ...line, [0, 'ENDSEC']]))
    expect(dxfWithoutText(input)).toBe(input)
  })
})
