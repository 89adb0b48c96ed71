import { describe, expect, it } from 'vitest'
import { DrawTime } from './draw-time'

/** Feeds frames as [time, draws] pairs. */
function framed(frames: [number, boolean][]): DrawTime {
  const time = new DrawTime()
  for (const [at, draws] of frames) time.frame(draws, at)
  return time
}

describe('DrawTime', () => {
  it('is 0 until the view has drawn and a frame has followed', () => {
    expect(framed([]).lastMs).toBe(0)
    expect(
      framed([
        [0, false],
        [16, false],
        [32, true],
      ]).lastMs,
    ).toBe(0)
  })

  it('takes the longer of the two gaps after a drawing frame, where the wait may show', () => {
    expect(
      framed([
        [0, true],
        [16, false],
        [2016, false],
      ]).lastMs,
    ).toBe(2000)
    expect(
      framed([
        [0, true],
        [900, false],
        [916, false],
      ]).lastMs,
    ).toBe(900)
  })

  it('leaves out idle frames after those two, however far apart (a hidden tab)', () => {
    expect(
      framed([
        [0, true],
        [16, false],
        [33, false],
        [60_000, false],
      ]).lastMs,
    ).toBe(17)
  })

  it('follows the newest drawing: a slow one after a fast one, and back', () => {
    const time = framed([
      [0, true],
      [16, false],
      [33, false],
    ])
    expect(time.lastMs).toBe(17)
    time.frame(true, 50)
    time.frame(false, 66)
    time.frame(false, 1066)
    expect(time.lastMs).toBe(1000)
    time.frame(true, 1082)
    time.frame(false, 1098)
    time.frame(false, 1114)
    expect(time.lastMs).toBe(16)
  })

  it('times frames that all draw, each by the gap after it', () => {
    expect(
      framed([
        [0, true],
        [500, true],
        [1000, true],
      ]).lastMs,
    ).toBe(500)
  })
})
