import type { Ptr } from './context.ts'

/** Reads that must match the getter before memory is trusted for a drawing. */
const SAMPLES_NEEDED = 3

/** How a value is read both ways, compared, and named in an error. */
export type CheckedReadOf<T> = {
  /** What is read, for the error `verify` throws. */
  name: string
  fromMemory(at: Ptr): T
  /** The binding's answer; null when it has none (memory is then not compared). */
  byGetter(at: Ptr): T | null
  same(memory: T, getter: T): boolean
  show(value: T): string
}

/**
 * A field read straight from memory at an offset the dynapi does not describe: through the
 * getter, compared with memory, until memory has matched on the drawing's first few reads, then
 * from memory alone. A mismatch sends every later read through the getter, or throws when
 * `verify` is set (which also keeps every read compared).
 */
export class CheckedRead<T> {
  private readonly of: CheckedReadOf<T>
  private readonly verify: boolean
  /** Whether the offset held (undefined: not yet known). */
  private inMemory: boolean | undefined
  private samples = 0

  constructor(of: CheckedReadOf<T>, verify: boolean) {
    this.of = of
    this.verify = verify
  }

  read(at: Ptr): T | null {
    if (this.inMemory && !this.verify) return this.of.fromMemory(at)
    const expected = this.of.byGetter(at)
    if (this.inMemory === false || expected === null) return expected
    const actual = this.of.fromMemory(at)
    if (this.of.same(actual, expected)) {
      if (++this.samples >= SAMPLES_NEEDED) this.inMemory = true
    } else if (this.verify) {
      const { name, show } = this.of
      throw new Error(`${name}: memory has ${show(actual)}, the getter ${show(expected)}`)
    } else {
      this.inMemory = false
    }
    return expected
  }
}
