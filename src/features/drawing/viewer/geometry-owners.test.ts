import { describe, expect, it } from 'vitest'
import { GeometryHandles } from '#contract/geometry-handles.ts'
import { OwnerIndex, ownerMask } from './geometry-owners'

describe('owner index', () => {
  const index = new OwnerIndex(GeometryHandles.of(['1F', '2a0', '3B', 'ABCDEF012', '', '0']))

  it('finds the handles the geometry holds, whatever their case, once each, as it spells them', () => {
    expect(index.find(['2A0', '1f', 'FFFF', '2a0'])).toEqual({
      handles: ['2a0', '1F'],
      owners: [1, 0],
    })
  })

  it('finds handles held as text as well as those held as numbers', () => {
    expect(index.find(['abcdef012', '0', '3B'])).toEqual({
      handles: ['ABCDEF012', '0', '3B'],
      owners: [3, 5, 2],
    })
  })

  it('finds nothing for no handles or unknown ones, nor a plain handle written otherwise', () => {
    expect(index.find([])).toEqual({ handles: [], owners: [] })
    expect(index.find(['00', '01F', 'FFFF'])).toEqual({ handles: [], owners: [] })
  })
})

describe('owner mask', () => {
  it('flags the owners given', () => {
    expect([...ownerMask(4, [3, 1])]).toEqual([0, 1, 0, 1])
  })
})
