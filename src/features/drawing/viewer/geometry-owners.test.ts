import { describe, expect, it } from 'vitest'
import { OwnerIndex, ownerMask } from './geometry-owners'

describe('owner index', () => {
  const index = new OwnerIndex(['1F', '2a0', '3B'])

  it('finds the handles the geometry holds, whatever their case, once each, as it spells them', () => {
    expect(index.find(['2A0', '1f', 'FFFF', '2a0'])).toEqual({
      handles: ['2a0', '1F'],
      owners: [1, 0],
    })
  })

  it('finds nothing for no handles or unknown ones', () => {
    expect(index.find([])).toEqual({ handles: [], owners: [] })
    expect(index.find(['0', ''])).toEqual({ handles: [], owners: [] })
  })
})

describe('owner mask', () => {
  it('flags the owners given', () => {
    expect([...ownerMask(4, [3, 1])]).toEqual([0, 1, 0, 1])
  })
})
