import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type MovingPicture,
  movePicture,
  type PictureMove,
  type PictureTarget,
  WHEEL_REST_MS,
} from './move-picture'

let moving: MovingPicture | undefined
afterEach(() => {
  moving?.stop()
  moving = undefined
  vi.useRealTimers()
  document.body.replaceChildren()
})

/** A surface holding a canvas, whose picture moves while `slow` says the view is slow. */
function setUp(slow = true) {
  let wanted = slow
  const surface = document.createElement('div')
  const canvas = document.createElement('canvas')
  surface.append(canvas)
  document.body.append(surface)
  const calls: string[] = []
  const shown: PictureMove[] = []
  const target: PictureTarget = {
    picture: () => canvas,
    wanted: () => wanted,
    setViewerPanning: (on) => calls.push(on ? 'panning on' : 'panning off'),
    show(move) {
      shown.push(move)
      const { scale, dx, dy } = move
      calls.push(`show ${+scale.toFixed(4)} ${dx},${dy} (picture ${canvas.style.transform})`)
    },
  }
  moving = movePicture(surface, target)
  const becomeFast = () => {
    wanted = false
  }
  return { surface, canvas, calls, shown, becomeFast }
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

/** A wheel turn over `on`; whether it went on to the element (the viewer's own wheel zoom). */
function wheel(on: Element, deltaY: number, x = 0, y = 0, deltaMode = 0): boolean {
  let reached = false
  const seen = () => {
    reached = true
  }
  on.addEventListener('wheel', seen)
  const event = new WheelEvent('wheel', {
    bubbles: true,
    cancelable: true,
    deltaY,
    deltaMode,
    clientX: x,
    clientY: y,
  })
  on.dispatchEvent(event)
  on.removeEventListener('wheel', seen)
  return reached && !event.defaultPrevented
}

describe('movePicture: a drag', () => {
  it('tells of each move of the picture, back in place too, for what is laid over it', () => {
    const surface = document.createElement('div')
    const canvas = document.createElement('canvas')
    surface.append(canvas)
    document.body.append(surface)
    const moves: PictureMove[] = []
    moving = movePicture(surface, {
      picture: () => canvas,
      wanted: () => true,
      setViewerPanning: () => {},
      show: () => {},
      moved: (move) => moves.push(move),
    })
    pointer(canvas, 'pointerdown', 100, 100)
    pointer(canvas, 'pointermove', 130, 90)
    pointer(canvas, 'pointerup', 130, 90)
    expect(moves).toEqual([
      { scale: 1, dx: 30, dy: -10 },
      { scale: 1, dx: 0, dy: 0 },
    ])
  })

  it('moves the picture with a drag and has the view drawn there once, when it ends', () => {
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
      'panning on',
      'show 1 60,20 (picture translate(60px, 20px))',
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

  it('shows nothing new for a click, and ignores other buttons and other pointers', () => {
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
    expect(calls).toEqual(['panning off', 'panning on', 'show 1 20,0 (picture translate(20px))'])
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 0, 5)
    pointer(canvas, 'pointercancel', 0, 5)
    expect(calls.slice(3)).toEqual([
      'panning off',
      'panning on',
      'show 1 0,5 (picture translate(0px, 5px))',
    ])
    expect(canvas.style.transform).toBe('')
  })

  it('puts everything back when stopped in the middle of a drag, and listens no more', () => {
    const { canvas, calls } = setUp()
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 9, 9)
    moving?.stop()
    moving = undefined
    expect(calls).toEqual(['panning off', 'panning on', 'show 1 9,9 (picture translate(9px, 9px))'])
    pointer(canvas, 'pointerdown', 0, 0)
    pointer(canvas, 'pointermove', 9, 9)
    expect(canvas.style.transform).toBe('')
    expect(calls).toHaveLength(3)
  })
})

describe('movePicture: the wheel', () => {
  it('zooms the picture about the pointer, kept from the viewer, and has the view drawn there once the wheel rests', () => {
    vi.useFakeTimers()
    const { canvas, calls, shown } = setUp()
    // 100 px of wheel away from the person: out by 0.95⁵, as the viewer's own wheel zoom does,
    // about the pointer at (200, 100), which stays where it is (shown at dx + scale·200).
    expect(wheel(canvas, 100, 200, 100)).toBe(false)
    const out = 0.95 ** 5
    expect(canvas.style.transformOrigin).toBe('0px 0px')
    const [dx, dy, scale] = (canvas.style.transform.match(/-?[\d.]+/g) ?? []).map(Number)
    expect(dx).toBeCloseTo(200 * (1 - out), 3)
    expect(dy).toBeCloseTo(100 * (1 - out), 3)
    expect(scale).toBeCloseTo(out, 5)
    vi.advanceTimersByTime(WHEEL_REST_MS - 1)
    expect(calls).toEqual([])
    // Once more, in lines of 16 px, before the wheel rests: out by the same again.
    expect(wheel(canvas, 100 / 16, 200, 100, 1)).toBe(false)
    vi.advanceTimersByTime(WHEEL_REST_MS - 1)
    expect(calls).toEqual([])
    vi.advanceTimersByTime(1)
    const twice = out * out
    expect(shown).toHaveLength(1)
    expect(shown[0]?.scale).toBeCloseTo(twice, 10)
    expect(shown[0]?.dx).toBeCloseTo(200 * (1 - twice), 8)
    expect(shown[0]?.dy).toBeCloseTo(100 * (1 - twice), 8)
    expect(canvas.style.transform).toBe('')
  })

  it('draws the view where a zoom left the picture before a drag goes on from there', () => {
    vi.useFakeTimers()
    const { canvas, calls, shown } = setUp()
    wheel(canvas, -100, 0, 0)
    pointer(canvas, 'pointerdown', 50, 50)
    expect(shown).toHaveLength(1)
    expect(shown[0]?.scale).toBeCloseTo(1 / 0.95 ** 5, 10)
    expect(calls.slice(1)).toEqual(['panning off'])
    expect(canvas.style.transform).toBe('')
    pointer(canvas, 'pointermove', 60, 50)
    pointer(canvas, 'pointerup', 60, 50)
    expect(calls.slice(2)).toEqual(['panning on', 'show 1 10,0 (picture translate(10px))'])
    vi.advanceTimersByTime(WHEEL_REST_MS)
    expect(calls).toHaveLength(4)
  })

  it('draws the view where the wheel left the picture at once when something else moves the view', () => {
    vi.useFakeTimers()
    const { canvas, shown } = setUp()
    wheel(canvas, 100, 10, 20)
    moving?.settle()
    expect(shown).toHaveLength(1)
    expect(shown[0]?.scale).toBeCloseTo(0.95 ** 5, 10)
    expect(canvas.style.transform).toBe('')
    vi.advanceTimersByTime(WHEEL_REST_MS)
    expect(shown).toHaveLength(1)
  })

  it('draws the view where the wheel left the picture before a press picks, however fast the view', () => {
    vi.useFakeTimers()
    const { canvas, calls, becomeFast } = setUp()
    wheel(canvas, 100, 0, 0)
    becomeFast()
    pointer(canvas, 'pointerdown', 5, 5)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatch(/^show 0\.7738 0,0 /)
  })

  it('takes a trackpad pinch (the wheel with Ctrl) ten times over, as the viewer does', () => {
    vi.useFakeTimers()
    const { canvas, shown } = setUp()
    canvas.dispatchEvent(
      new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: -10, ctrlKey: true }),
    )
    vi.advanceTimersByTime(WHEEL_REST_MS)
    expect(shown[0]?.scale).toBeCloseTo(1 / 0.95 ** 5, 10)
  })

  it('leaves the wheel to the viewer while the view draws fast enough', () => {
    const { canvas, calls } = setUp(false)
    expect(wheel(canvas, 100)).toBe(true)
    expect(canvas.style.transform).toBe('')
    expect(calls).toEqual([])
  })
})
