/**
 * How long the view's last drawing took, as the page sees it: told of each animation frame and
 * whether the view draws in it, it keeps the longest of the two gaps between frames that follow a
 * frame that drew. Drawing runs in the GPU process, and the browser lets a frame start while the
 * one before is still being drawn, so the wait shows in the first gap or in the second.
 * Anything else holding the page up just after a drawing (a long task, a tab hidden) counts too:
 * until the next drawing is timed, a fast view may be taken as slow, and moved as a picture.
 */
export class DrawTime {
  private previousAt: number | undefined
  private gapsSinceDraw = Number.POSITIVE_INFINITY
  private sinceDraw = 0
  private last = 0

  /** The last drawing's time in ms (0 until one has been seen). */
  get lastMs(): number {
    return this.last
  }

  /** One animation frame, at `now` (ms); `draws` when the view draws in it. */
  frame(draws: boolean, now: number): void {
    if (this.previousAt !== undefined && this.gapsSinceDraw < 2) {
      this.gapsSinceDraw++
      this.sinceDraw = Math.max(this.sinceDraw, now - this.previousAt)
      this.last = this.sinceDraw
    }
    this.previousAt = now
    if (draws) {
      this.gapsSinceDraw = 0
      this.sinceDraw = 0
    }
  }
}
