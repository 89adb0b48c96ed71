import { afterEach, describe, expect, it, vi } from 'vitest'
// Floating UI's own platform, by path: the bare name is this module's stand-in (vite.config.ts).
import * as fullPlatform from '../../../node_modules/@floating-ui/dom/dist/floating-ui.dom.mjs'
import {
  arrow,
  autoUpdate,
  computePosition,
  flip,
  hide,
  limitShift,
  offset,
  shift,
  size,
} from './floating-ui-dom'

type Box = { x: number; y: number; width: number; height: number }

/** A layout jsdom cannot make: the viewport's size, a button's box and a popover's size. */
function layout(viewport: { width: number; height: number }, button: Box, popover: Box) {
  const html = document.documentElement
  vi.spyOn(html, 'clientWidth', 'get').mockReturnValue(viewport.width)
  vi.spyOn(html, 'clientHeight', 'get').mockReturnValue(viewport.height)
  const reference = document.createElement('button')
  reference.getBoundingClientRect = () => DOMRect.fromRect(button)
  document.body.append(reference)
  // As Radix portals it: a fixed wrapper in <body>.
  const floating = document.createElement('div')
  floating.style.position = 'fixed'
  floating.style.width = `${popover.width}px`
  floating.style.height = `${popover.height}px`
  Object.defineProperty(floating, 'offsetWidth', { value: popover.width })
  Object.defineProperty(floating, 'offsetHeight', { value: popover.height })
  floating.getBoundingClientRect = () => DOMRect.fromRect(popover)
  document.body.append(floating)
  return { reference, floating }
}

/** The middleware Radix's popper passes for the user menu (side bottom, align end, offset 8). */
const radixMiddleware = () => [
  offset({ mainAxis: 8, alignmentAxis: 0 }),
  shift({ mainAxis: true, crossAxis: false, limiter: limitShift(), padding: 0, boundary: [] }),
  flip({ padding: 0, boundary: [], altBoundary: false }),
  size({ padding: 0, boundary: [], apply: () => {} }),
]

afterEach(() => {
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

describe('the lean Floating UI platform', () => {
  const cases = [
    ['room below', { width: 1280, height: 900 }, { x: 1180, y: 14, width: 36, height: 36 }],
    [
      'no room below: flips above',
      { width: 1280, height: 120 },
      { x: 1180, y: 70, width: 36, height: 36 },
    ],
    [
      'narrow: shifted into view',
      { width: 150, height: 900 },
      { x: 100, y: 14, width: 36, height: 36 },
    ],
    [
      'button near the left edge',
      { width: 800, height: 600 },
      { x: 4, y: 14, width: 36, height: 36 },
    ],
    [
      'button past the right edge',
      { width: 1280, height: 900 },
      { x: 1270, y: 14, width: 36, height: 36 },
    ],
  ] as const

  it.each(cases)('places the popover as Floating UI does: %s', async (_, viewport, button) => {
    const { reference, floating } = layout(viewport, button, { x: 0, y: 0, width: 192, height: 80 })
    const options = { strategy: 'fixed', placement: 'bottom-end' } as const
    const lean = await computePosition(reference, floating, {
      ...options,
      middleware: radixMiddleware(),
    })
    const full = await fullPlatform.computePosition(reference, floating, {
      ...options,
      middleware: radixMiddleware(),
    })
    expect({ x: lean.x, y: lean.y, placement: lean.placement }).toEqual({
      x: full.x,
      y: full.y,
      placement: full.placement,
    })
  })

  it('puts it under the button, its right edge on the button’s, 8 px below', async () => {
    const { reference, floating } = layout(
      { width: 1280, height: 900 },
      { x: 1180, y: 14, width: 36, height: 36 },
      { x: 0, y: 0, width: 192, height: 80 },
    )
    const placed = await computePosition(reference, floating, {
      strategy: 'fixed',
      placement: 'bottom-end',
      middleware: radixMiddleware(),
    })
    expect(placed).toMatchObject({ x: 1180 + 36 - 192, y: 14 + 36 + 8, placement: 'bottom-end' })
  })

  it('updates on scroll, resize and either element’s resize, and stops when cleaned up', () => {
    const observed: Element[] = []
    let disconnected = false
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe(element: Element) {
          observed.push(element)
        }
        disconnect() {
          disconnected = true
        }
      },
    )
    const { reference, floating } = layout(
      { width: 800, height: 600 },
      { x: 10, y: 10, width: 36, height: 36 },
      { x: 0, y: 0, width: 192, height: 80 },
    )
    const update = vi.fn()
    const cleanup = autoUpdate(reference, floating, update)
    expect(update).toHaveBeenCalledTimes(1)
    expect(observed).toEqual([reference, floating])
    document.body.dispatchEvent(new Event('scroll'))
    window.dispatchEvent(new Event('resize'))
    expect(update).toHaveBeenCalledTimes(3)
    cleanup()
    window.dispatchEvent(new Event('resize'))
    document.body.dispatchEvent(new Event('scroll'))
    expect(update).toHaveBeenCalledTimes(3)
    expect(disconnected).toBe(true)
    vi.unstubAllGlobals()
  })

  it('refuses the arrow and hideWhenDetached, which the app never uses', () => {
    expect(() => arrow()).toThrow(/not in this build/)
    expect(() => hide()).toThrow(/not in this build/)
  })
})
