/**
 * Seeded noise for tests that feed the engine broken files: the same bytes on every run, so a
 * failure can be replayed.
 */

/** A 32-bit xorshift from `seed` (never 0): the next unsigned 32-bit number at each call. */
export function xorshift(seed = 0x9e3779b9): () => number {
  let x = seed | 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return x >>> 0
  }
}

/** `length` bytes of noise. */
export function noise(length: number, seed?: number): Uint8Array {
  const next = xorshift(seed)
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = next() & 0xff
  return out
}

/** A stream for a small case number: spread first, so seeds 1, 2, 3 start far apart. */
function caseStream(seed: number): () => number {
  return xorshift(Math.imul(seed, 0x9e3779b9))
}

/**
 * A copy of `bytes` with `count` bytes changed (each XORed with an odd value, so never kept) at
 * positions from `from` on, chosen by `seed`.
 */
export function flipBytes(
  bytes: Uint8Array,
  count: number,
  seed: number,
  from: number,
): Uint8Array {
  const next = caseStream(seed)
  const out = bytes.slice()
  for (let i = 0; i < count; i++) {
    const at = from + (next() % (out.length - from))
    out[at] ^= (next() & 0xff) | 1
  }
  return out
}

/** A copy of `bytes` with `span` bytes from a position past `from` (chosen by `seed`) zeroed. */
export function zeroSpan(bytes: Uint8Array, span: number, seed: number, from: number): Uint8Array {
  const at = from + (caseStream(seed)() % Math.max(1, bytes.length - from - span))
  const out = bytes.slice()
  out.fill(0, at, at + span)
  return out
}
