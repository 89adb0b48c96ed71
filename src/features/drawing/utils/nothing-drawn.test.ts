import { describe, expect, it } from 'vitest'
import { geometryOf } from '#contract/testing/drawing-geometry.ts'
import { drawsNothing, nothingDrawnText } from './nothing-drawn'

describe('drawsNothing', () => {
  it('is true of geometry with handles but no path, arc or triangle', () => {
    expect(drawsNothing(geometryOf({ handles: ['2A', '2B'] }))).toBe(true)
    expect(drawsNothing(geometryOf({ points: [0, 0, 1, 1] }))).toBe(false)
    expect(drawsNothing(geometryOf({ arcs: [{ x: 0, y: 0, radius: 1 }] }))).toBe(false)
    expect(drawsNothing(geometryOf({ triangles: [{ points: [0, 0, 1, 0, 0, 1] }] }))).toBe(false)
  })
})

describe('nothingDrawnText', () => {
  it('names what the model space holds, in words, with counts', () => {
    expect(nothingDrawnText([{ type: '3DSOLID', count: 58 }])).toBe(
      "This drawing's model space holds 58 3D solids: not drawn, not measured.",
    )
    expect(
      nothingDrawnText([
        { type: '3DSOLID', count: 1 },
        { type: 'TEXT', count: 2 },
        { type: 'MTEXT', count: 1 },
        { type: 'ACME_WIDGET', count: 1200 },
      ]),
    ).toBe(
      "This drawing's model space holds 1 3D solid, 3 texts and 1,200 ACME_WIDGET entities: not drawn, not measured.",
    )
  })

  it('says what its layouts hold apart from the model space', () => {
    expect(nothingDrawnText([{ type: 'paper space', count: 1 }])).toBe(
      "Nothing in this drawing's model space can be drawn. Its layouts (paper space) hold 1 entity: only model space is drawn and measured.",
    )
  })

  it('says only that nothing can be drawn without a list of what was left out', () => {
    expect(nothingDrawnText()).toBe("Nothing in this drawing's model space can be drawn.")
    expect(nothingDrawnText([])).toBe("Nothing in this drawing's model space can be drawn.")
  })
})
