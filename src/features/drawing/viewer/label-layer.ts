import { HIGHLIGHT_COLOR } from './drawing-look'
import {
  EMPHASISED_FONT_PX,
  LABEL_FONT_PX,
  type LabelPlaces,
  type ShownLabel,
} from './geometry-labels'

const hex = (colour: number) => `#${colour.toString(16).padStart(6, '0')}`

/**
 * The names drawn over the drawing: HTML text, crisp at any zoom, laid over the canvas (which
 * draws no text). Each frame moves the few names shown (MAX_LABELS at most): an element each,
 * kept and reused, written only where it changed; nothing goes through React. The container
 * must be positioned (the drawing view's is): the layer fills it. Hidden from assistive
 * technology: the names are those of the list beside the drawing.
 */
export class LabelLayer {
  readonly element: HTMLDivElement
  private readonly names: HTMLSpanElement[] = []
  /** What each element shows now: its text, where, and whether emphasised. */
  private readonly shows: { text: string; at: string; emphasised: boolean }[] = []

  constructor(container: HTMLElement) {
    this.element = document.createElement('div')
    this.element.setAttribute('aria-hidden', 'true')
    this.element.dataset.testid = 'drawing-labels'
    Object.assign(this.element.style, {
      position: 'absolute',
      inset: '0',
      overflow: 'hidden',
      pointerEvents: 'none',
    })
    container.append(this.element)
  }

  /** Shows these names of `places`, each centred where it is placed; the others are hidden. */
  show(places: LabelPlaces | undefined, shown: readonly ShownLabel[]): void {
    const count = places ? shown.length : 0
    for (let i = 0; i < count; i++) {
      const { label, x, y } = shown[i] as ShownLabel
      const name = this.names[i] ?? this.add()
      const was = this.shows[i] as (typeof this.shows)[number]
      const text = places?.texts[label] ?? ''
      const emphasised = places?.emphasised[label] ?? false
      // Whole pixels: text placed between them blurs.
      const at = `translate(${Math.round(x)}px, ${Math.round(y)}px) translate(-50%, -50%)`
      if (was.text !== text) name.textContent = text
      if (was.at !== at) name.style.transform = at
      if (was.emphasised !== emphasised) style(name, emphasised)
      if (name.hidden) name.hidden = false
      this.shows[i] = { text, at, emphasised }
    }
    for (let i = count; i < this.names.length; i++) {
      const name = this.names[i] as HTMLSpanElement
      if (!name.hidden) name.hidden = true
    }
  }

  dispose(): void {
    this.element.remove()
  }

  private add(): HTMLSpanElement {
    const name = document.createElement('span')
    Object.assign(name.style, {
      position: 'absolute',
      left: '0',
      top: '0',
      whiteSpace: 'nowrap',
      fontFamily: 'ui-sans-serif, system-ui, sans-serif',
      lineHeight: '1.4',
      padding: '0 4px',
      borderRadius: '2px',
      // Legible over lines of any colour: a dark edge around light text.
      textShadow: '0 0 2px #000, 0 0 2px #000',
    } satisfies Partial<CSSStyleDeclaration>)
    style(name, false)
    this.element.append(name)
    this.names.push(name)
    this.shows.push({ text: '', at: '', emphasised: false })
    return name
  }
}

/** A name as drawn: light and small, or (the one picked) larger, bold, in the highlight's colour. */
function style(name: HTMLSpanElement, emphasised: boolean) {
  name.dataset.emphasised = String(emphasised)
  Object.assign(name.style, {
    fontSize: `${emphasised ? EMPHASISED_FONT_PX : LABEL_FONT_PX}px`,
    fontWeight: emphasised ? '700' : '400',
    color: emphasised ? hex(HIGHLIGHT_COLOR) : '#e2e8f0',
    background: emphasised ? 'rgba(0, 0, 0, 0.75)' : 'transparent',
    zIndex: emphasised ? '1' : '0',
  } satisfies Partial<CSSStyleDeclaration>)
}
