/** What panning by the picture asks of the viewer it works for. */
export interface ImagePanTarget {
  /** The element the viewer draws into: moved while a drag lasts. */
  picture(): HTMLElement
  /** Whether this drag should move the picture: the view is too slow to draw at each move. */
  wanted(): boolean
  /** Turns the viewer's own panning off while a drag moves the picture, on after. */
  setViewerPanning(on: boolean): void
  /** Pans the view by a finished drag, in CSS pixels (right and down positive). */
  panBy(dx: number, dy: number): void
}

/**
 * Panning a drawing that takes long to draw: while the drag lasts, the picture already drawn moves
 * with the pointer (a CSS transform, nothing redrawn), and the view is panned once, when the
 * drag ends. A frame of a few hundred thousand entities drawn without a GPU takes seconds; the
 * picture follows the pointer at the screen's rate, and what the drag uncovers is drawn after it.
 *
 * Listens on `surface`, which holds the picture: presses are seen on their way down (capture),
 * before the viewer's own handlers on the picture, so those can be turned off for the drag.
 * Returns a function that stops listening.
 */
export function panByImage(surface: HTMLElement, target: ImagePanTarget): () => void {
  let drag: { id: number; x: number; y: number; dx: number; dy: number } | null = null

  function move(dx: number, dy: number) {
    target.picture().style.transform = dx === 0 && dy === 0 ? '' : `translate(${dx}px, ${dy}px)`
  }

  /** Ends the drag: the view takes the distance moved and is drawn there, the picture put back. */
  function finish() {
    if (!drag) return
    const { dx, dy } = drag
    drag = null
    if (dx !== 0 || dy !== 0) target.panBy(dx, dy)
    // Put back in the same task as the pan: the browser shows the moved picture until the view
    // is drawn again, never the picture back in place with the old drawing.
    move(0, 0)
    target.setViewerPanning(true)
  }

  function onDown(event: PointerEvent) {
    // A second finger (a pinch) ends the drag: zooming is the viewer's, which has seen both.
    if (drag) return finish()
    if (!event.isPrimary || event.button !== 0 || !target.wanted()) return
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, dy: 0 }
    target.setViewerPanning(false)
    // The viewer's panning would have held the pointer; now the surface does, so that a drag
    // going past its edge still moves the picture and ends here.
    surface.setPointerCapture?.(event.pointerId)
  }

  function onMove(event: PointerEvent) {
    if (!drag || event.pointerId !== drag.id) return
    drag.dx = event.clientX - drag.x
    drag.dy = event.clientY - drag.y
    move(drag.dx, drag.dy)
  }

  function onEnd(event: PointerEvent) {
    if (drag && event.pointerId === drag.id) finish()
  }

  surface.addEventListener('pointerdown', onDown, { capture: true })
  surface.addEventListener('pointermove', onMove)
  surface.addEventListener('pointerup', onEnd)
  surface.addEventListener('pointercancel', onEnd)
  return () => {
    finish()
    surface.removeEventListener('pointerdown', onDown, { capture: true })
    surface.removeEventListener('pointermove', onMove)
    surface.removeEventListener('pointerup', onEnd)
    surface.removeEventListener('pointercancel', onEnd)
  }
}
