import { describe, expect, it } from 'vitest'
import { sidesOf, withFewerArcPoints } from './fewer-arc-points'

const arc = (deltaAngle: number, closed = false) => ({
  closed,
  deltaAngle,
  getPoints: (sides: number) => Array.from({ length: sides + 1 }, (_, i) => i),
})

describe('sidesOf', () => {
  it('draws a circle (or a closed ellipse) with 48 sides, an arc by its sweep', () => {
    expect(sidesOf(arc(0, true))).toBe(48)
    expect(sidesOf(arc(2 * Math.PI))).toBe(48)
    expect(sidesOf(arc(Math.PI))).toBe(24)
    expect(sidesOf(arc(-Math.PI / 2))).toBe(12)
  })

  it('gives a tiny arc a few sides still', () => {
    expect(sidesOf(arc(0.01))).toBe(4)
  })
})

describe('withFewerArcPoints', () => {
  it('has the renderer draw arcs and ellipses through its own line drawing, with those sides', () => {
    const drawn: unknown[][] = []
    const renderer = {
      linePoints: (points: unknown[]) => {
        drawn.push(points)
        return 'line'
      },
      circularArc: (_arc: unknown): unknown => 'old',
      ellipticalArc: (_arc: unknown): unknown => 'old',
    }
    withFewerArcPoints(renderer)
    expect(renderer.circularArc(arc(0, true))).toBe('line')
    expect(renderer.ellipticalArc(arc(Math.PI))).toBe('line')
    expect(drawn.map((points) => points.length)).toEqual([49, 25])
  })
})
