import { describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { areaLine, lengthLine, measured, placed } from '../../testing/boq/price/measured.ts'
import { expectWholeBill } from '../../testing/boq/price/whole-bill.ts'
import { attributeOf, labelOf, lookupOf } from './piece.ts'
import { piecesOf } from './pieces.ts'

describe('measured pieces', () => {
  it('are the references one by one, with their values', () => {
    const boq = measured([
      placed({ handle: '1F', block: 'DOOR', layer: 'Doors', attributes: { Width: '900' } }),
      placed({ handle: '20', block: 'DOOR', layer: 'Doors', count: 6, visibility: 'Open' }),
    ])
    const { pieces, warnings } = piecesOf(boq)
    expect(warnings).toEqual([])
    expect(pieces.map((p) => [p.line, p.block, p.layer, p.count, p.handles, p.together])).toEqual([
      ['A1', 'DOOR', 'Doors', 1, ['1F'], false],
      ['A1', 'DOOR', 'Doors', 6, ['20'], true],
    ])
    expect(attributeOf(pieces[0], 'WIDTH')).toBe('900')
    expect(lookupOf(pieces[0])('width')).toBe(900)
    expect(pieces[1].visibility).toBe('Open')
    expectWholeBill(boq, pieces)
  })

  it('count nested references on their holder, by block', () => {
    const boq = measured([
      placed({
        handle: 'A',
        block: 'ROOM',
        layer: 'Rooms',
        nested: [{ block: 'CHAIR', count: 4 }],
      }),
    ])
    const { pieces } = piecesOf(boq)
    expect(pieces.map((p) => [p.line, p.block, p.layer, p.count, p.handles])).toEqual([
      ['A1', 'ROOM', 'Rooms', 1, ['A']],
      ['A2', 'CHAIR', 'Rooms', 4, ['A']],
    ])
    expectWholeBill(boq, pieces)
  })

  it('give what a count line has beyond its listed references as one piece per layer', () => {
    // The factory's bill counts 11 doors, its references list 7 of them.
    const boq = floorPlanBoq()
    const { pieces } = piecesOf(boq)
    const doors = pieces.filter((p) => p.line === 'A1')
    expect(doors.map((p) => [p.count, p.handles, p.together])).toEqual([
      [1, ['1F'], false],
      [6, ['20'], true],
      [4, ['1F', '20'], true],
    ])
    expect(labelOf(doors[2])).toBe('4 of A1 (DOOR) on layer Doors')
    expectWholeBill(boq, pieces)
  })

  it('keep a split line to its own references, and the rest with the line values', () => {
    const boq = floorPlanBoq()
    const windows = piecesOf(boq).pieces.filter((p) => p.line === 'A2')
    expect(windows.map((p) => [p.count, p.visibility, labelOf(p)])).toEqual([
      [1, 'Open', 'reference 21'],
      [1, 'Open', '1 of A2 (WINDOW (visibility: Open)) on layer Windows'],
    ])
  })

  it('do not guess which split line a nested reference is in', () => {
    const boq = measured([
      placed({ handle: 'H', block: 'ROOM', layer: 'R', nested: [{ block: 'DOOR', count: 2 }] }),
    ])
    // The bill split DOOR by visibility: the list cannot say which state the nested ones have.
    const door = boq.bill[1]
    boq.bill.splice(
      1,
      1,
      {
        ...door,
        ref: 'A2',
        values: { visibility: 'Open' },
        quantity: 1,
        breakdown: [{ ...door.breakdown[0], count: 1, quantity: 1 }],
      },
      {
        ...door,
        ref: 'A3',
        values: { visibility: 'Shut' },
        quantity: 1,
        breakdown: [{ ...door.breakdown[0], count: 1, quantity: 1 }],
      },
    )
    const { pieces } = piecesOf(boq)
    expect(
      pieces.filter((p) => p.block === 'DOOR').map((p) => [p.line, p.count, p.visibility]),
    ).toEqual([
      ['A2', 1, 'Open'],
      ['A3', 1, 'Shut'],
    ])
    expectWholeBill(boq, pieces)
  })

  it('are the linework and area rows of a result kept without figures per entity', () => {
    const boq = measured(
      [],
      [
        lengthLine('B1', 'Walls', [
          { kind: 'line', count: 3, quantity: 12, handles: ['1', '2', '3'] },
          { kind: 'arc', count: 1, quantity: 1.5, handles: ['4'] },
        ]),
        areaLine('C1', 'Slabs', [
          { kind: 'hatch', count: 1, quantity: 40, handles: ['5'] },
          { kind: 'closed polyline', count: 2, quantity: 9, handles: ['6', '7'] },
        ]),
      ],
    )
    const { pieces, warnings } = piecesOf(boq)
    expect(
      pieces.map((p) => [p.match, p.line, p.layer, p.kind, p.count, p.quantity, p.together]),
    ).toEqual([
      ['length', 'B1', 'Walls', 'line', 3, 12, true],
      ['length', 'B1', 'Walls', 'arc', 1, 1.5, false],
      ['area', 'C1', 'Slabs', 'hatch', 1, 40, false],
      ['area', 'C1', 'Slabs', 'polyline', 2, 9, true],
    ])
    expect(labelOf(pieces[0])).toBe('3 lines on layer Walls (B1)')
    expect(warnings).toEqual([
      'Some linework or areas are kept per layer and kind, not per entity (a result kept before entities were measured one by one, or entities without a handle): a formula runs once on each such layer and kind, over all its entities together.',
    ])
  })

  it('are each entity of linework and areas, with its own length, area and perimeter', () => {
    const walls = lengthLine('B1', 'Walls', [
      { kind: 'line', count: 3, quantity: 12, handles: ['1', '2', '3'] },
    ])
    walls.breakdown[0].quantities = [2, 4, 6]
    const slabs = areaLine('C1', 'Slabs', [
      { kind: 'hatch', count: 1, quantity: 40, handles: ['5'] },
      { kind: 'closed polyline', count: 2, quantity: 9, handles: ['6', '7'] },
    ])
    slabs.breakdown[0].quantities = [40]
    slabs.breakdown[0].perimeters = [26]
    slabs.breakdown[1].quantities = [4, 5]
    slabs.breakdown[1].perimeters = [8, 9]
    const boq = measured([], [walls, slabs])
    const { pieces, warnings } = piecesOf(boq)
    expect(
      pieces.map((p) => [p.line, p.kind, p.count, p.quantity, p.perimeter, p.handles, p.together]),
    ).toEqual([
      ['B1', 'line', 1, 2, undefined, ['1'], false],
      ['B1', 'line', 1, 4, undefined, ['2'], false],
      ['B1', 'line', 1, 6, undefined, ['3'], false],
      ['C1', 'hatch', 1, 40, 26, ['5'], false],
      ['C1', 'polyline', 1, 4, 8, ['6'], false],
      ['C1', 'polyline', 1, 5, 9, ['7'], false],
    ])
    expect(warnings).toEqual([])
    expect(lookupOf(pieces[4])('perimeter')).toBe(8)
    expect(lookupOf(pieces[1])('length')).toBe(4)
    expect(labelOf(pieces[1])).toBe('1 line (entity 2) on layer Walls (B1)')
    expectWholeBill(boq, pieces)
  })

  it('keep a row together when some of its entities have no figure of their own', () => {
    const walls = lengthLine('B1', 'Walls', [
      { kind: 'line', count: 3, quantity: 12, handles: ['1', '2'] },
    ])
    walls.breakdown[0].quantities = [2, 4]
    const { pieces } = piecesOf(measured([], [walls]))
    expect(pieces.map((p) => [p.count, p.quantity, p.together])).toEqual([[3, 12, true]])
  })

  it('say when the references list was capped', () => {
    const boq = { ...floorPlanBoq(), referencesCapped: true }
    expect(piecesOf(boq).warnings.some((w) => w.startsWith('Not every reference'))).toBe(true)
  })
})

describe('many measured pieces', () => {
  it('are all given, past what a call can take as arguments', () => {
    const refs = Array.from({ length: 150_000 }, (_, i) =>
      placed({ handle: i.toString(16), block: 'B', layer: 'L' }),
    )
    const boq = measured(refs)
    const { pieces } = piecesOf(boq)
    expect(pieces).toHaveLength(150_000)
    expectWholeBill(boq, pieces)
  })
})
