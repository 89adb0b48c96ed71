import { describe, expect, it } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { measured, placed } from '../../testing/boq/price/measured.ts'
import { compileRules, type Group } from './compile.ts'
import { firstMatcher } from './group-index.ts'
import { labelOf, type Piece } from './piece.ts'
import { piecesOf } from './pieces.ts'

const LAYERS = ['Walls', 'WALLS-EXT', 'Wa', 'W', 'Doors', 'doors 2', 'Ämter', '']
const BLOCKS = ['DOOR', 'Door-2', 'DO', 'Window', 'window*', '']

function pieces(): Piece[] {
  const refs = LAYERS.flatMap((layer, i) =>
    BLOCKS.map((block, j) => placed({ handle: `${i}.${j}`, block, layer })),
  )
  return piecesOf(measured(refs)).pieces
}

describe('first-match search by the start of names', () => {
  it('finds the group a search of every group in order finds', () => {
    const rules: TakeoffRule[] = [
      { match: 'count', layer: 'Walls', code: '1' },
      { match: 'count', block: 'Do*', code: '2' },
      { match: 'count', layer: '*ext', code: '3' },
      { match: 'count', layer: 'wa*', block: 'window', code: '4' },
      { match: 'count', layer: 'W?', code: '5' },
      { match: 'count', block: 'window\\*', code: '6' },
      { match: 'count', layer: 'ä*', code: '7' },
      { match: 'count', layer: 'Doors 2', block: 'DOOR', code: '8' },
      { match: 'count', block: 'D', code: '9' },
      { match: 'count', layer: 'W', code: '10' },
      { match: 'count', code: '11' },
    ]
    const groups = compileRules(rules).compiled.groups.count
    const naive = (piece: Piece): Group | undefined => groups.find((g) => g.takes(piece))
    const first = firstMatcher(groups)
    const all = pieces()
    expect(all.length).toBe(LAYERS.length * BLOCKS.length)
    for (const piece of all) expect(first(piece), labelOf(piece)).toBe(naive(piece))
    // Gated and ungated groups alike take pieces, so both ways are tried.
    expect(new Set(all.map((p) => first(p)?.rows[0].code)).size).toBeGreaterThanOrEqual(8)
  })

  it('finds nothing where no group takes the piece', () => {
    const groups = compileRules([{ match: 'count', layer: 'x*', code: '1' }]).compiled.groups.count
    expect(
      pieces()
        .map(firstMatcher(groups))
        .every((g) => g === undefined),
    ).toBe(true)
  })
})
