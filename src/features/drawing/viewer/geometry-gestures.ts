import { wheelZoom } from './move-picture'

/** What the gestures on the view ask of it. */
export interface GestureTarget {
  /** Whether a drag pans the view (not while its picture is moved instead: move-picture.ts). */
  panning(): boolean
  /** Moves the drawing by (dx, dy) CSS pixels, right and down positive. */
  panBy(dx: number, dy: number): void
  /** Zooms `factor` times closer (below 1: farther) about a point of the page. */
  zoomAt(factor: number, clientX: number, clientY: number): void
}

/**
 * Drag pans, the wheel zooms about the pointer, two fingers pinch to zoom (and pan with their
 * middle). Listens on `surface` as presses bubble up to it: a press that move-picture.ts takes is
 * seen here too (it only turns panning off), and a wheel it takes is not. Returns what stops
 * listening.
 */
export function listenToGestures(surface: HTMLElement, target: GestureTarget): () => void {
  const pointers = new Map<number, { x: number; y: number }>()

  function onDown(event: PointerEvent) {
    if (event.pointerType === 'mouse' && event.button !== 0) return
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY })
    // Held until it is let go: a drag past the view's edge still pans, and ends here.
    surface.setPointerCapture?.(event.pointerId)
  }

  function onMove(event: PointerEvent) {
    const from = pointers.get(event.pointerId)
    if (!from) return
    const to = { x: event.clientX, y: event.clientY }
    if (pointers.size === 1) {
      pointers.set(event.pointerId, to)
      if (target.panning()) target.panBy(to.x - from.x, to.y - from.y)
      return
    }
    // A pinch: the two fingers' middle and spread, before and after this one moved.
    const other = [...pointers].find(([id]) => id !== event.pointerId)?.[1]
    pointers.set(event.pointerId, to)
    if (!other) return
    const spreadBefore = Math.hypot(from.x - other.x, from.y - other.y)
    const spreadAfter = Math.hypot(to.x - other.x, to.y - other.y)
    const before = { x: (from.x + other.x) / 2, y: (from.y + other.y) / 2 }
    const after = { x: (to.x + other.x) / 2, y: (to.y + other.y) / 2 }
    target.panBy(after.x - before.x, after.y - before.y)
    if (spreadBefore > 0 && spreadAfter > 0) {
      target.zoomAt(spreadAfter / spreadBefore, after.x, after.y)
    }
  }

  function onEnd(event: PointerEvent) {
    pointers.delete(event.pointerId)
  }

  function onWheel(event: WheelEvent) {
    event.preventDefault()
    if (event.deltaY === 0) return
    // As the picture zooms when it is moved instead.
    target.zoomAt(wheelZoom(event), event.clientX, event.clientY)
  }

  surface.addEventListener('pointerdown', onDown)
  surface.addEventListener('pointermove', onMove)
  surface.addEventListener('pointerup', onEnd)
  surface.addEventListener('pointercancel', onEnd)
  surface.addEventListener('wheel', onWheel, { passive: false })
  return () => {
    surface.removeEventListener('pointerdown', onDown)
    surface.removeEventListener('pointermove', onMove)
    surface.removeEventListener('pointerup', onEnd)
    surface.removeEventListener('pointercancel', onEnd)
    surface.removeEventListener('wheel', onWheel)
  }
}
