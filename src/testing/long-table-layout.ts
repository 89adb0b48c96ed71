import { vi } from 'vitest'

const ROW_HEIGHT = 29
const prototype = HTMLElement.prototype as unknown as Record<string, unknown>

/**
 * jsdom lays nothing out: for a long table's tests, the table's box is given a height of twenty
 * rows, each row drawn one row's height over `rows` in all, and scrolling the box moves its offset
 * and says so on the next tick (as a browser does on its next frame). Returns what puts jsdom's
 * own back; `scrolled` lists the elements asked to scroll into view.
 */
export function fakeLongTableLayout(rows: number): { scrolled: Element[]; restore(): void } {
  const scrolled: Element[] = []
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get: () => ROW_HEIGHT,
  })
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => ROW_HEIGHT * 20,
  })
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get: () => ROW_HEIGHT * (rows + 1),
  })
  prototype.scrollTo = function (this: HTMLElement, options: ScrollToOptions) {
    this.scrollTop = options.top ?? 0
    setTimeout(() => this.dispatchEvent(new Event('scroll')))
  }
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolled.push(this)
  })
  return {
    scrolled,
    restore() {
      // jsdom's own getters come back from its prototype.
      delete prototype.clientHeight
      delete prototype.scrollHeight
      delete prototype.offsetHeight
      delete prototype.scrollTo
      // biome-ignore lint/suspicious/noExplicitAny: jsdom has none of its own to put back
      delete (Element.prototype as any).scrollIntoView
    },
  }
}
