import { describe, expect, it } from 'vitest'
import { drawnGeometryOf } from '#contract/testing/drawing-geometry.ts'
import type { DrawingLabel } from './drawing-viewer'
import { ownerExtents } from './geometry-extents'
import { labelPlaces, layoutLabels, MAX_LABELS } from './geometry-labels'
import { OwnerIndex } from './geometry-owners'

const SIZE = { width: 800, height: 600 }

/** A closed rectangle's path. */
const rectangle = (x: number, y: number, width: number, height: number) => [
  x,
  y,
  x + width,
  y,
  x + width,
  y + height,
  x,
  y + height,
  x,
  y,
]

function placesOf(parts: Parameters<typeof drawnGeometryOf>[0], labels: readonly DrawingLabel[]) {
  const geometry = drawnGeometryOf(parts)
  const owners = new OwnerIndex(geometry.handles)
  return labelPlaces(geometry, ownerExtents(geometry), labels, (handle) => owners.ownerOf(handle))
}

/** The anchors of the places, as x y pairs. */
const anchors = (places: ReturnType<typeof placesOf>) =>
  places.texts.map((_, i) => [places.boxes[i * 4], places.boxes[i * 4 + 1]])

describe('where a zone’s name goes', () => {
  it('at its outline’s middle, or inside an outline whose middle is not (an L-shaped room)', () => {
    // The L: 0..100 across the bottom 40 units, 0..40 up the left; its box's middle (50, 50)
    // lies outside, and the line through it crosses the upright part, 0..40.
    const ell = [0, 0, 100, 0, 100, 40, 40, 40, 40, 100, 0, 100, 0, 0]
    const places = placesOf(
      {
        handles: ['A1', 'A2', 'A3'],
        paths: [
          { points: rectangle(200, 0, 60, 20), owner: 0 },
          { points: ell, owner: 1 },
        ],
        arcs: [{ x: 500, y: 500, radius: 10, owner: 2 }],
      },
      [
        { handle: 'A1', text: 'Store' },
        { handle: 'A2', text: 'Hall' },
        { handle: 'a3', text: 'Lift' },
      ],
    )
    // Largest first: the L's box is 100 by 100.
    expect(places.texts).toEqual(['Hall', 'Store', 'Lift'])
    expect(anchors(places)).toEqual([
      [20, 50],
      [230, 10],
      [500, 500],
    ])
  })

  it('puts the emphasised name first, and leaves out handles not drawn or not in model space', () => {
    const places = placesOf(
      {
        handles: ['B1', 'B2', 'B3'],
        paths: [
          { points: rectangle(0, 0, 1000, 1000), owner: 0 },
          { points: rectangle(0, 0, 10, 10), owner: 1 },
        ],
      },
      [
        { handle: 'B1', text: 'Level 1' },
        { handle: 'B2', text: 'Cupboard', emphasised: true },
        { handle: 'B3', text: 'Nothing drawn' },
        { handle: 'FFFF', text: 'Elsewhere' },
      ],
    )
    expect(places.texts).toEqual(['Cupboard', 'Level 1'])
    expect(places.emphasised).toEqual([true, false])
  })
})

/** A grid of square rooms `side` units wide, named `Room 1`…, `columns` across. */
function grid(count: number, columns: number, side: number) {
  const handles = Array.from({ length: count }, (_, i) => (0x100 + i).toString(16).toUpperCase())
  const paths = handles.map((_, i) => ({
    points: rectangle((i % columns) * side, Math.floor(i / columns) * side, side, side),
    owner: i,
  }))
  const labels = handles.map((handle, i) => ({ handle, text: `Room ${i + 1}` }))
  return { handles, paths, labels }
}

describe('which names are drawn', () => {
  it('none of 10,000 rooms fitted whole, each room near enough to hold its name as one zooms in', () => {
    const rooms = grid(10_000, 100, 4000)
    const places = placesOf(rooms, rooms.labels)
    // Fitted: 400,000 units on 800 px, each room 8 px wide, too small for its name.
    const fitted = layoutLabels(places, { x: 200_000, y: 200_000, unitsPerPx: 500 }, SIZE)
    expect(fitted).toEqual([])
    // Close: a room is 200 px wide, 4 by 3 rooms in view (and the rooms cut by the view's edge).
    const close = layoutLabels(places, { x: 200_000, y: 200_000, unitsPerPx: 20 }, SIZE)
    expect(close.length).toBeGreaterThanOrEqual(12)
    expect(close.length).toBeLessThanOrEqual(5 * 4)
    for (const { x, y } of close) {
      expect(x).toBeGreaterThan(-100)
      expect(x).toBeLessThan(SIZE.width + 100)
      expect(y).toBeGreaterThan(-100)
      expect(y).toBeLessThan(SIZE.height + 100)
    }
    // Each at its room's middle: room 5051 (row 50, column 50) spans 200,000..204,000.
    const middle = close.find(({ label }) => places.texts[label] === 'Room 5051')
    expect(middle).toEqual({ label: expect.any(Number), x: 500, y: 200 })
  })

  it('draws the emphasised name however small its room, and no name over another', () => {
    const places = placesOf(
      {
        handles: ['C1', 'C2', 'C3'],
        paths: [
          { points: rectangle(0, 0, 1000, 1000), owner: 0 },
          { points: rectangle(400, 400, 200, 200), owner: 1 },
          { points: rectangle(0, 0, 10, 10), owner: 2 },
        ],
      },
      [
        { handle: 'C1', text: 'Level 1' },
        { handle: 'C2', text: 'Flat 1' },
        { handle: 'C3', text: 'Duct', emphasised: true },
      ],
    )
    // 1000 units on 500 px: the flat is 100 px wide, yet its name falls on the level's.
    const shown = layoutLabels(places, { x: 500, y: 500, unitsPerPx: 2 }, SIZE)
    expect(shown.map(({ label }) => places.texts[label])).toEqual(['Duct', 'Level 1'])
    // Farther: the level is too small for its name; the duct is still named.
    const far = layoutLabels(places, { x: 500, y: 500, unitsPerPx: 100 }, SIZE)
    expect(far.map(({ label }) => places.texts[label])).toEqual(['Duct'])
  })

  it(`draws at most ${MAX_LABELS} names however many would fit`, () => {
    // 600 rooms far larger than the view, their middles 40 px apart across and 25 px up.
    const handles = Array.from({ length: 600 }, (_, i) => (0x100 + i).toString(16).toUpperCase())
    const paths = handles.map((_, i) => {
      const x = (i % 20) * 40
      const y = Math.floor(i / 20) * 25
      return { points: rectangle(x - 5000, y - 5000, 10_000, 10_000), owner: i }
    })
    const places = placesOf(
      { handles, paths },
      handles.map((handle, i) => ({ handle, text: String(i) })),
    )
    const shown = layoutLabels(places, { x: 400, y: 300, unitsPerPx: 1 }, SIZE)
    expect(shown).toHaveLength(MAX_LABELS)
  })
})
