// Stands in for @floating-ui/dom in the build (vite.config.ts resolve.alias): the positioning
// math stays Floating UI's own (@floating-ui/core), only the measuring of the page is simpler.
// It is exact for what Radix places: content portalled into <body> with `position: fixed`
// (Radix's popper strategy), whose offset parent and clipping box are the viewport, next to an
// anchor that is not scaled. A floating element inside a transformed or scrolling container, or
// the `inline` middleware, would need the full platform back (tests compare the two).
import {
  type ComputePositionConfig,
  computePosition as computeWithPlatform,
  type Dimensions,
  type Platform,
  type Rect,
} from '@floating-ui/core'

export {
  autoPlacement,
  detectOverflow,
  flip,
  inline,
  limitShift,
  offset,
  shift,
  size,
} from '@floating-ui/core'

function notInThisBuild(): never {
  throw new Error('Popover arrows and hideWhenDetached are not in this build: see vite.config.ts')
}

// Radix asks for these only for a <Popover.Arrow> or hideWhenDetached, which the app never uses.
export const arrow = notInThisBuild
export const hide = notInThisBuild

/** The element's CSS size, or its layout size when the two disagree (as Floating UI measures). */
function cssDimensions(element: Element): Dimensions {
  const css = getComputedStyle(element)
  const width = Number.parseFloat(css.width) || 0
  const height = Number.parseFloat(css.height) || 0
  if (!(element instanceof HTMLElement)) return { width, height }
  const { offsetWidth, offsetHeight } = element
  return Math.round(width) !== offsetWidth || Math.round(height) !== offsetHeight
    ? { width: offsetWidth, height: offsetHeight }
    : { width, height }
}

function viewport(): Rect {
  const html = document.documentElement
  const visual = window.visualViewport
  return visual
    ? { x: visual.offsetLeft, y: visual.offsetTop, width: visual.width, height: visual.height }
    : { x: 0, y: 0, width: html.clientWidth, height: html.clientHeight }
}

export const platform: Platform = {
  getElementRects: ({ reference, floating }) => {
    const { x, y, width, height } = (reference as Element).getBoundingClientRect()
    return {
      reference: { x, y, width, height },
      floating: { x: 0, y: 0, ...cssDimensions(floating as Element) },
    }
  },
  getClippingRect: viewport,
  getDimensions: (element) => cssDimensions(element as Element),
  getDocumentElement: () => document.documentElement,
  isElement: (value) => value instanceof Element,
  isRTL: (element) => getComputedStyle(element as Element).direction === 'rtl',
}

export function computePosition(
  reference: Element,
  floating: HTMLElement,
  options: Partial<ComputePositionConfig> = {},
) {
  return computeWithPlatform(reference, floating, { ...options, platform })
}

/**
 * Calls `update` whenever the reference or the floating element may have moved or changed size:
 * page scroll (any scroll container, caught on the way down), window resize, either's resize.
 */
export function autoUpdate(reference: Element, floating: HTMLElement, update: () => void) {
  const resized = new ResizeObserver(() => update())
  resized.observe(reference)
  resized.observe(floating)
  const options = { capture: true, passive: true }
  window.addEventListener('scroll', update, options)
  window.addEventListener('resize', update)
  update()
  return () => {
    resized.disconnect()
    window.removeEventListener('scroll', update, options)
    window.removeEventListener('resize', update)
  }
}

/** Unused by Radix; kept for the re-exports of @floating-ui/react-dom. */
export function getOverflowAncestors(): Element[] {
  return []
}
