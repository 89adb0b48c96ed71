import { DrawTime } from './draw-time'

/** Drawings remembered: a view slow in any of them counts as slow. */
const REMEMBERED = 4

/**
 * How long the view's drawings take, for deciding whether a drag redraws at each move: the
 * longest of the last few drawings fully timed and the one being timed.
 *
 * - DrawTime times a drawing from the two gaps between frames after it, and until the second
 *   comes it tells only the first, which is short (the frame after a drawing is often already
 *   due; the wait shows in the next). A press between the two (a drag begun just after another
 *   ended, the GPU still drawing) would take a slow view for a fast one and redraw it at every
 *   move of that drag.
 * - A view that draws in about one frame fits in it one time and misses it the next: redrawn at
 *   every move, each miss is a stutter. Any miss among the last few makes it slow.
 */
export class DrawingPace {
  private readonly time = new DrawTime()
  private timed: number[] = []
  private framesSinceDraw = Number.POSITIVE_INFINITY

  /** The view's drawing time in ms (0 until one has been seen). */
  get lastMs(): number {
    return Math.max(this.time.lastMs, ...this.timed)
  }

  /** One animation frame, at `now` (ms); `draws` when the view draws in it. */
  frame(draws: boolean, now: number): void {
    this.time.frame(draws, now)
    if (draws) this.framesSinceDraw = 0
    else if (++this.framesSinceDraw === 2) {
      this.timed = [...this.timed, this.time.lastMs].slice(-REMEMBERED)
    }
  }
}
