import { describe, expect, it } from 'vitest'
import { aciColour, entityColour } from './colours.ts'

describe('colours', () => {
  it('gives the AutoCAD palette by index', () => {
    expect(aciColour(1)).toBe(0xff0000)
    expect(aciColour(3)).toBe(0x00ff00)
    expect(aciColour(5)).toBe(0x0000ff)
    expect(aciColour(7)).toBe(0xffffff)
  })

  it('draws white for an index outside the palette', () => {
    expect(aciColour(0)).toBe(0xffffff)
    expect(aciColour(256)).toBe(0xffffff)
  })

  it('tells by layer and by block from an own colour, a true colour first', () => {
    expect(entityColour(256)).toBe('bylayer')
    expect(entityColour(undefined)).toBe('bylayer')
    expect(entityColour(0)).toBe('byblock')
    expect(entityColour(1)).toBe(0xff0000)
    expect(entityColour(1, 0x123456)).toBe(0x123456)
  })
})
