/**
 * Where the picture was moved to: scaled by `scale` about its top left corner, then moved by
 * (`dx`, `dy`) CSS pixels (right and down positive). A point of the picture at (x, y) is shown at
 * (dx + scale·x, dy + scale·y).
 */
export type PictureMove = { scale: number; dx: number; dy: number }

/** What moving the picture asks of the viewer it works for. */
export interface PictureTarget {
  /** The element the viewer draws into: moved while a drag or the wheel lasts. */
  picture(): HTMLElement
  /** Whether to move the picture: the view is too slow to draw at each move. */
  wanted(): boolean
  /** Turns the viewer's own panning off while a drag moves the picture, on after. */
  setViewerPanning(on: boolean): void
  /** Shows in the view, drawn, what the moved picture shows. */
  show(move: PictureMove): void
  /** Told of each move of the picture (back in place too): what is laid over it follows. */
  moved?(move: PictureMove): void
}

/** How long the wheel rests before the view is drawn where it took the picture. */
export const WHEEL_REST_MS = 250
/** The wheel zoom of three.js's OrbitControls at zoomSpeed 5, as CAD viewers have it: 0.95⁵ per 100 px. */
const ZOOM_PER_100_PX = 0.95 ** 5
/** Wheel deltas in lines and in pages, in pixels, as the viewer's wheel zoom counts them. */
const PX_PER_DELTA_MODE = [1, 16, 100]

/**
 * How much closer a turn of the wheel takes the view (below 1: farther), as OrbitControls' wheel
 * zoom takes it. A trackpad's pinch comes as the wheel with Ctrl, which that zoom takes ten
 * times over (unless the key is really held, which the page cannot tell).
 */
export function wheelZoom(event: Pick<WheelEvent, 'deltaY' | 'deltaMode' | 'ctrlKey'>): number {
  const pinch = event.ctrlKey ? 10 : 1
  const px = event.deltaY * pinch * (PX_PER_DELTA_MODE[event.deltaMode] ?? 1)
  return ZOOM_PER_100_PX ** (px / 100)
}

/** The picture moving, for whoever else moves the view. */
export interface MovingPicture {
  /**
   * Has the view drawn where the picture went, now: what moves the view otherwise (a fit, a
   * zoom key) calls it first, so that it moves on from there rather than the picture's move
   * coming after it.
   */
  settle(): void
  /** Settles, and stops listening. */
  stop(): void
}

const NOT_MOVED: PictureMove = { scale: 1, dx: 0, dy: 0 }
const isStill = ({ scale, dx, dy }: PictureMove) => scale === 1 && dx === 0 && dy === 0

/**
 * Panning and wheel zooming of a drawing that takes long to draw: while a drag or the wheel lasts,
 * the picture already drawn moves with it (a CSS transform, nothing redrawn), and the view is
 * drawn once, where the picture was taken, when the drag ends or the wheel rests. A frame of a
 * few hundred thousand entities drawn without a GPU takes seconds; the picture follows at the
 * screen's rate, and what it uncovers is drawn after.
 *
 * Listens on `surface`, which holds the picture: presses and the wheel are seen on their way down
 * (capture), before the viewer's own handlers on the picture, so those can be turned off or kept
 * out.
 */
export function movePicture(surface: HTMLElement, target: PictureTarget): MovingPicture {
  let moved = NOT_MOVED
  let drag: { id: number; x: number; y: number; from: PictureMove } | null = null
  let wheelRest: ReturnType<typeof setTimeout> | undefined

  function place(move: PictureMove) {
    moved = move
    const picture = target.picture()
    const still = isStill(move)
    picture.style.transformOrigin = still ? '' : '0 0'
    picture.style.transform = still
      ? ''
      : `translate(${move.dx}px, ${move.dy}px)${move.scale === 1 ? '' : ` scale(${move.scale})`}`
    target.moved?.(move)
  }

  /** The view takes where the picture went and is drawn there; the picture goes back. */
  function settle() {
    clearTimeout(wheelRest)
    wheelRest = undefined
    if (drag) {
      drag = null
      target.setViewerPanning(true)
    }
    if (isStill(moved)) return
    target.show(moved)
    // Put back in the same task as the view is moved: the browser shows the moved picture until
    // the view is drawn again, never the picture back in place with the old drawing.
    place(NOT_MOVED)
  }

  function onDown(event: PointerEvent) {
    // A second finger (a pinch) ends the drag: zooming is the viewer's, which has seen both.
    // Any press draws the view where the wheel left the picture, before it picks or pans.
    settle()
    if (!event.isPrimary || event.button !== 0 || !target.wanted()) return
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, from: moved }
    target.setViewerPanning(false)
    // With its panning off, the viewer's controls no longer move the view; the surface holds the
    // pointer, so that a drag going past its edge still moves the picture and ends here.
    surface.setPointerCapture?.(event.pointerId)
  }

  function onMove(event: PointerEvent) {
    if (!drag || event.pointerId !== drag.id) return
    const { from } = drag
    place({
      scale: from.scale,
      dx: from.dx + event.clientX - drag.x,
      dy: from.dy + event.clientY - drag.y,
    })
  }

  function onEnd(event: PointerEvent) {
    if (drag && event.pointerId === drag.id) settle()
  }

  function onWheel(event: WheelEvent) {
    if (wheelRest === undefined && !target.wanted()) return
    // Kept from the viewer's own wheel zoom on the picture: the picture zooms instead.
    event.preventDefault()
    event.stopPropagation()
    if (drag || event.deltaY === 0) return
    const factor = wheelZoom(event)
    // About the point under the pointer, which stays where it is.
    const box = surface.getBoundingClientRect()
    const x = event.clientX - box.left
    const y = event.clientY - box.top
    place({
      scale: moved.scale * factor,
      dx: x + (moved.dx - x) * factor,
      dy: y + (moved.dy - y) * factor,
    })
    clearTimeout(wheelRest)
    wheelRest = setTimeout(settle, WHEEL_REST_MS)
  }

  surface.addEventListener('pointerdown', onDown, { capture: true })
  surface.addEventListener('pointermove', onMove)
  surface.addEventListener('pointerup', onEnd)
  surface.addEventListener('pointercancel', onEnd)
  surface.addEventListener('wheel', onWheel, { capture: true, passive: false })
  function stop() {
    settle()
    surface.removeEventListener('pointerdown', onDown, { capture: true })
    surface.removeEventListener('pointermove', onMove)
    surface.removeEventListener('pointerup', onEnd)
    surface.removeEventListener('pointercancel', onEnd)
    surface.removeEventListener('wheel', onWheel, { capture: true })
  }
  return { settle, stop }
}
