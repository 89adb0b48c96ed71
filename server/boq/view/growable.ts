/**
 * Typed arrays that grow by doubling: the builder appends millions of numbers, and a typed array
 * with a length check per append is several times faster than a pushed number[] then copied.
 */
export class Float64Growable {
  array = new Float64Array(1024)
  length = 0

  push(value: number): void {
    if (this.length === this.array.length) this.grow()
    this.array[this.length++] = value
  }

  push2(x: number, y: number): void {
    if (this.length + 2 > this.array.length) this.grow()
    this.array[this.length++] = x
    this.array[this.length++] = y
  }

  private grow(): void {
    const next = new Float64Array(this.array.length * 2)
    next.set(this.array)
    this.array = next
  }
}

export class Uint32Growable {
  array = new Uint32Array(1024)
  length = 0

  push(value: number): void {
    if (this.length === this.array.length) {
      const next = new Uint32Array(this.array.length * 2)
      next.set(this.array)
      this.array = next
    }
    this.array[this.length++] = value
  }

  /** A copy of exactly what was appended. */
  toArray(): Uint32Array {
    return this.array.slice(0, this.length)
  }
}
