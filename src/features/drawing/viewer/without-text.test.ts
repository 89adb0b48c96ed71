import type { DwgDatabase } from '@mlightcad/libredwg-web'
import { describe, expect, it } from 'vitest'
import { withoutText } from './without-text'

const entity = (type: string, handle: number, more: object = {}) => ({ type, handle, ...more })

function database(): DwgDatabase {
  return {
    entities: [
      entity('LINE', 1),
      entity('TEXT', 2),
      entity('MTEXT', 3),
      entity('INSERT', 4, { attribs: [entity('ATTRIB', 5)] }),
      entity('HATCH', 6),
      entity('DIMENSION', 7),
      entity('OLE2FRAME', 13),
    ],
    tables: {
      LAYER: { entries: [{ name: '0' }] },
      BLOCK_RECORD: {
        entries: [
          { name: 'door', entities: [entity('ARC', 8), entity('ATTDEF', 9)] },
          { name: '*D1', entities: [entity('LINE', 10), entity('MTEXT', 11), entity('SOLID', 12)] },
        ],
      },
    },
  } as unknown as DwgDatabase
}

describe('withoutText', () => {
  it('drops text (and embedded OLE pictures) in model space and in every block, keeping every other entity as read', () => {
    const result = withoutText(database())
    expect(result.entities.map((e) => e.handle)).toEqual([1, 4, 6, 7])
    expect(result.tables.BLOCK_RECORD.entries.map((b) => b.entities.map((e) => e.handle))).toEqual([
      [8],
      [10, 12],
    ])
    expect(result.tables.LAYER).toEqual(database().tables.LAYER)
  })

  it("strips a block reference's attributes and leaves the database it was given alone", () => {
    const input = database()
    const insert = withoutText(input).entities.find((e) => e.type === 'INSERT')
    expect(insert).toMatchObject({ handle: 4, attribs: [] })
    expect(input.entities).toHaveLength(7)
    expect((input.entities[3] as unknown as { attribs: unknown[] }).attribs).toHaveLength(1)
  })
})
