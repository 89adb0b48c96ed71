import { describe, expect, it } from 'vitest'
import { billUnits } from '../measure/units.ts'
import { applyRules } from './apply.ts'
import { keyed, NONE, type Piece } from './piece.ts'
import { compileRuleSet } from './price.ts'

function piece(block: string, handle: string): Piece {
  return keyed({
    match: 'count',
    line: 'A1',
    description: 'Fittings',
    block,
    layer: 'Fittings',
    attributes: NONE,
    properties: NONE,
    count: 1,
    quantity: 1,
    handles: [handle],
    together: false,
    origin: 'reference',
  })
}

describe('applying rules', () => {
  it('keeps two blocks’ pieces on one line and layer apart when no rule takes them', () => {
    const { notClassified } = applyRules(
      compileRuleSet([]),
      [piece('TAP', 'T1'), piece('SINK', 'S1'), piece('TAP', 'T2')],
      { units: billUnits(4), titleOf: () => undefined, pieceVariables: new Set() },
    )
    expect(
      notClassified.map(({ block, line, layer, count, handles }) => ({
        block,
        line,
        layer,
        count,
        handles,
      })),
    ).toEqual([
      { block: 'TAP', line: 'A1', layer: 'Fittings', count: 2, handles: ['T1', 'T2'] },
      { block: 'SINK', line: 'A1', layer: 'Fittings', count: 1, handles: ['S1'] },
    ])
  })
})
