import { describe, expect, it } from 'vitest'
import { DrawingPace } from './drawing-pace'

/** Feeds frames as [time, draws] pairs. */
function paced(frames: [number, boolean][], pace = new DrawingPace()): DrawingPace {
  for (const [at, draws] of frames) pace.frame(draws, at)
  return pace
}

describe('DrawingPace', () => {
  it('is 0 until a drawing has been timed', () => {
    expect(new DrawingPace().lastMs).toBe(0)
    expect(paced([[0, true]]).lastMs).toBe(0)
  })

  it('takes the longer of the two gaps after a drawing', () => {
    expect(
      paced([
        [0, true],
        [2, false],
        [202, false],
      ]).lastMs,
    ).toBe(200)
  })

  it('keeps a slow drawing until the next one is timed: its first gap alone is short', () => {
    const pace = paced([
      [0, true],
      [2, false],
      [202, false],
      [210, true],
      [213, false],
    ])
    // Pressed here, between the two gaps after the last drawing: still slow.
    expect(pace.lastMs).toBe(200)
  })

  it('stays slow while any of the last four drawings was, then follows the fast ones', () => {
    const pace = paced([
      [0, true],
      [2, false],
      [202, false],
    ])
    // Four fast drawings after the slow one: slow until the fourth is timed.
    let at = 210
    for (let drawing = 1; drawing <= 4; drawing++) {
      paced(
        [
          [at, true],
          [at + 3, false],
          [at + 19, false],
        ],
        pace,
      )
      at += 40
      expect(pace.lastMs, `after fast drawing ${drawing}`).toBe(drawing < 4 ? 200 : 16)
    }
  })

  it('takes a view that draws in about a frame as slow once it misses one', () => {
    const pace = paced([
      [0, true],
      [16, false],
      [32, false],
      [40, true],
      [73, false],
      [90, false],
      [100, true],
      [116, false],
      [132, false],
    ])
    expect(pace.lastMs).toBe(33)
  })

  it('is slow at once when the drawing being timed already is', () => {
    const pace = paced([
      [0, true],
      [16, false],
      [32, false],
      [40, true],
      [340, false],
    ])
    expect(pace.lastMs).toBe(300)
  })

  it('follows a view drawn at every frame (a drag redrawing it)', () => {
    const pace = paced([
      [0, true],
      [16, false],
      [32, false],
      [48, true],
      [98, true],
      [148, true],
    ])
    expect(pace.lastMs).toBe(50)
  })
})
