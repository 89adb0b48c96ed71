import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'

/** Up to this many rows a table is drawn whole; past it, only the rows in view (and a few more). */
export const VIRTUAL_FROM = 200

/** A row's height before it is measured (one line of text-sm with its padding). */
const ROW_HEIGHT = 29

/**
 * A long table scrolls in a box of its own and draws only the items near its view: a bill of
 * tens of thousands of lines stays as quick as a short one. An item may be several rows (a bill
 * line and its open breakdown); each is measured once drawn.
 */
export function useLongTable(count: number, keyOf: (index: number) => string) {
  const scroller = useRef<HTMLDivElement>(null)
  const long = count > VIRTUAL_FROM
  const virtualizer = useVirtualizer({
    count,
    enabled: long,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: keyOf,
    overscan: 10,
    // A scroll that React is already drawing for (a pick scrolling to its line) must not flush.
    useFlushSync: false,
  })
  const items = virtualizer.getVirtualItems()
  const before = items[0]?.start ?? 0
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0)
  /** The items drawn, by index: those near the view of a long table, every one of a short one. */
  const drawn = long ? items.map((item) => item.index) : Array.from({ length: count }, (_, i) => i)
  /** Given as an item's `ref`, measures it once drawn (a long table's items only). */
  const measure = long ? virtualizer.measureElement : undefined
  return { scroller, long, virtualizer, before, after, drawn, measure }
}

export type LongTable = ReturnType<typeof useLongTable>

/** The box a table scrolls in: bounded only when the table is long. */
export const scrollerClass = (long: boolean) => (long ? 'max-h-[70vh] overflow-y-auto' : '')

/** Header cells stay on top of a long table as it scrolls. */
export const headClass = (long: boolean) => (long ? 'sticky top-0 z-10 bg-white' : '')
