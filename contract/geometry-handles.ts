/** Hex as readers write a handle: upper case, no leading zero, at most eight digits (32 bits). */
const PLAIN_HEX = /^(?:0|[1-9A-F][0-9A-F]{0,7})$/

/** A handle's number when it is written as readers write one (PLAIN_HEX), else undefined. */
export function handleNumber(handle: string): number | undefined {
  return PLAIN_HEX.test(handle) ? Number.parseInt(handle, 16) : undefined
}

/**
 * A drawing's model-space handles as the drawing view holds them, by owner: a handle written as
 * readers write one as a number, any other (longer, lower case, none) as its text beside. A
 * million handles are 4 MB of numbers and no strings; text is made only for those asked for.
 */
export class GeometryHandles {
  /** Each owner's handle as a number (0 for one kept as text). */
  readonly numbers: Uint32Array
  /** The handles that are not plain hex, by owner. */
  readonly texts: ReadonlyMap<number, string>

  constructor(numbers: Uint32Array, texts: ReadonlyMap<number, string> = new Map()) {
    this.numbers = numbers
    this.texts = texts
  }

  /** Handles as the drawing writes them, one an owner. */
  static of(handles: readonly string[]): GeometryHandles {
    const numbers = new Uint32Array(handles.length)
    const texts = new Map<number, string>()
    handles.forEach((handle, owner) => {
      const number = handleNumber(handle)
      if (number === undefined) texts.set(owner, handle)
      else numbers[owner] = number
    })
    return new GeometryHandles(numbers, texts)
  }

  get length(): number {
    return this.numbers.length
  }

  /** The owner's handle, as the drawing writes it. */
  at(owner: number): string {
    return this.texts.get(owner) ?? this.numbers[owner].toString(16).toUpperCase()
  }

  toArray(): string[] {
    return Array.from(this.numbers, (_, owner) => this.at(owner))
  }
}
