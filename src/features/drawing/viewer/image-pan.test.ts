import { afterEach, describe, expect, it } from 'vitest'
import { type ImagePanTarget, panByImage } from './image-pan'

let stop: (() => void) | undefined
afterEach(() => {
  stop?.()
  stop = undefined
  document.body.replaceChildren()
})

/** A surface holding a canvas, panned by the picture while `slow` says the view is slow. */
function setUp(slow = true) {
  const surface = document.createElement('div')
  const canvas = document.createElement('canvas')
  surface.append(canvas)
  document.body.append(surface)
  const calls: string[] = []
  const target: ImagePanTarget = {
    picture: () => canvas,
    wanted: () => slow,
    setViewerPanning: (on) => calls.push(on ? 'panning on' : 'panning off'),
    panBy: (dx, dy) => calls.push(`pan ${dx},${dy} (picture ${canvas.style.transform || 'home'})`),
  }
  stop = panByImage(surface, target)
  return { surface, canvas, calls }
}

function pointer(on: Element, type: string, x: number, y: number, init: PointerEventInit = {}) {
  on.dispatchEvent(
    new PointerEvent(type, {
      bubbles: true,
      clientX: x,
      clientY: y,
      pointerId: 1,
      isPrimary: true,
      button: 0,
      ...init,
    }),
  )
}

describe('panByImage', () => {
  it('moves the picture with a drag and pans the view once, when it ends', () => {
    const { canvas, calls } = setUp()
    pointer(canvas, 'pointerdown', 100, 100)
    expect(calls).toEqual(['panning off'])
    pointer(canvas, 'pointermove', 130, 90)
    expect(canvas.style.transform).toBe('translate(30px, -10px)')
    pointer(canvas, 'pointermove', 160, 120)
    expect(canvas.style.transform).toBe('translate(60px, 20px)')
    pointer(canvas, 'pointerup', 160, 120)
    expect(calls).toEqual([
      'panning off',
      'pan 60,20 (picture translate(60px, 20px))',
      'panning on',
    ])
    expect(canvas.style.transform).toBe('')
  })

  it('turns the viewer off before its own handlers on the picture see the press', () => {
    const { canvas, calls } = setUp()
    const seen: string[] = []
    canvas.addEventListener('pointerdown', () => seen.push(calls.join()))
    pointer(canvas, 'pointerdown', 0, 0)
    expect(seen).toEqual(['panning off'])
  })

  it('leaves a drag to the viewer while the view draws fast enough', () => {
    const { canvas, calls } = setUp(false)
    pointer(canvas, 'pointerdown', 100, 100)
    pointer(canvas, 'pointermove', 150, 100)
    pointer(canvas, 'pointerup', 150, 100)
    expect(calls).toEqual([])
    expect(canvas.style.transform).toBe('')
  })

  it('pans nothing for a click, and ignores other buttons and other pointers', () => {
    const { canvas, calls } = setUp()
    pointer(canvas, 'pointerdown', 10, 10, { button: 2 })
    pointer(canvas, 'pointerdown', 10, 10, { isPrimary: false, pointerId: 2 })
    expect(calls).toEqual([])
    pointer(canvas, 'pointerdown', 10, 10)
    pointer(canvas, 'pointermove', 40, 40, { pointerId: 3 })
    expect(canvas.style.transform).toBe('')
    pointer(canvas, 'pointerup', 10, 10)
    expect(calls).toEqual(['panning off', 'panning on'])
  })

  it('ends the drag where it got to when a second finger comes down, or the pointer is lost', () => {
    const { canvas, calls } = setUp()
    pointer(canvas, 'pointerdown', 0, 0, { pointerType: 'touch' })
    pointer(canvas, 'pointermove', 20, 0)
    pointer(canvas, 'pointerdown', 50, 50, { pointerId: 2, isPrimary: false })
    expect(calls).toEqual(['panning off', 'pan 20,0 (picture translate(20px))', 'panning on'])
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 0, 5)
    pointer(canvas, 'pointercancel', 0, 5)
    expect(calls.slice(3)).toEqual([
      'panning off',
      'pan 0,5 (picture translate(0px, 5px))',
      'panning on',
    ])
    expect(canvas.style.transform).toBe('')
  })

  it('puts everything back when stopped in the middle of a drag, and listens no more', () => {
    const { canvas, calls } = setUp()
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 9, 9)
    stop?.()
    stop = undefined
    expect(calls).toEqual(['panning off', 'pan 9,9 (picture translate(9px, 9px))', 'panning on'])
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 9, 9)
    expect(canvas.style.transform).toBe('')
    expect(calls).toHaveLength(3)
  })
})
