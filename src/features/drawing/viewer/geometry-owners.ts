import { type GeometryHandles, handleNumber } from '#contract/geometry-handles.ts'

type Lookup = { byNumber: Map<number, number>; byText: Map<string, number> }

/**
 * The geometry's owners by handle: which of the handles a bill line names are model-space
 * entities of the drawing. Handles are hex, matched whatever their case; the lookup is made on
 * first use (a drawing shown without a highlight never needs it), by number for the handles the
 * geometry holds as numbers.
 */
export class OwnerIndex {
  private readonly handles: GeometryHandles
  private made: Lookup | undefined

  constructor(handles: GeometryHandles) {
    this.handles = handles
  }

  /**
   * The owners of these handles, once each, in the order given, with their handles as the
   * geometry spells them. An entity with nothing drawn is found too: it is in model space.
   */
  find(handles: readonly string[]): { handles: string[]; owners: number[] } {
    if (handles.length === 0) return { handles: [], owners: [] }
    const owners = new Set<number>()
    for (const handle of handles) {
      const owner = this.ownerOf(handle)
      if (owner !== undefined) owners.add(owner)
    }
    const found = [...owners]
    return { handles: found.map((owner) => this.handles.at(owner)), owners: found }
  }

  /** The owner of this handle, whatever its case; undefined when it is not in model space. */
  ownerOf(handle: string): number | undefined {
    const { byNumber, byText } = this.lookup()
    const text = handle.toUpperCase()
    const number = handleNumber(text)
    return (number === undefined ? undefined : byNumber.get(number)) ?? byText.get(text)
  }

  /** Makes the lookup now (about a tenth of a second for a million handles), if not made yet. */
  lookup(): Lookup {
    if (!this.made) {
      const { numbers, texts } = this.handles
      const byNumber = new Map<number, number>()
      for (let owner = 0; owner < numbers.length; owner++) {
        if (texts.size === 0 || !texts.has(owner)) byNumber.set(numbers[owner], owner)
      }
      const byText = new Map<string, number>()
      for (const [owner, text] of texts) byText.set(text.toUpperCase(), owner)
      this.made = { byNumber, byText }
    }
    return this.made
  }
}

/** One flag an owner, set (1) for these. */
export function ownerMask(ownerCount: number, owners: Iterable<number>): Uint8Array {
  const mask = new Uint8Array(ownerCount)
  for (const owner of owners) mask[owner] = 1
  return mask
}
