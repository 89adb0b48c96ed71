import { LEFT_OUT_TYPES } from './left-out'

/** Where a left-out type starts an entity: group code 0, then its name, each on its own line. */
const MENTIONS_LEFT_OUT = new RegExp(`\\n[ \\t]*0\\r?\\n(${[...LEFT_OUT_TYPES].join('|')})\\r?\\n`)
/** The sections that hold entities: model and paper space, and the blocks' contents. */
const WITH_ENTITIES = new Set(['ENTITIES', 'BLOCKS'])
const NEWLINE = 10

/**
 * An ASCII DXF without the entities the view leaves out (text, whose fonts it cannot fetch, and
 * embedded pictures: left-out.ts), as the DWG reader's worker leaves them out of a DWG. Works on
 * the bytes, line by line, so everything else stays byte for byte whatever the file's code page.
 * A file without any (the usual case for large drawings) comes back as it was given.
 */
export function dxfWithoutText(bytes: ArrayBuffer): ArrayBuffer {
  const data = new Uint8Array(bytes)
  // windows-1252 maps every byte to one character: the search sees the file whatever its encoding.
  if (!MENTIONS_LEFT_OUT.test(new TextDecoder('windows-1252').decode(data))) return bytes
  const kept: Uint8Array[] = []
  let section = ''
  let namesSection = false
  let skipping = false
  let run = 0
  let at = 0
  while (at < data.length) {
    const valueAt = lineEnd(data, at)
    const next = lineEnd(data, valueAt)
    const code = text(data, at, valueAt)
    if (code === '0') {
      const value = text(data, valueAt, next)
      namesSection = value === 'SECTION'
      if (value === 'ENDSEC') section = ''
      const skip = WITH_ENTITIES.has(section) && LEFT_OUT_TYPES.has(value)
      if (skip && !skipping) kept.push(data.subarray(run, at))
      if (!skip && skipping) run = at
      skipping = skip
    } else if (code === '2' && namesSection) {
      section = text(data, valueAt, next)
      namesSection = false
    }
    at = next
  }
  if (!skipping) kept.push(data.subarray(run))
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of kept) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out.buffer
}

/** Where the line starting at `from` ends (past its newline). */
function lineEnd(data: Uint8Array, from: number): number {
  const end = data.indexOf(NEWLINE, from)
  return end < 0 ? data.length : end + 1
}

/** A short line (a group code, an entity or section name) as text, without blanks around it. */
function text(data: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...data.subarray(from, Math.min(to, from + 64))).trim()
}
