/** The bill's units of a kept BOQ JSON: `units.length` and `units.area`. */
export interface KeptUnits {
  length: string
  area: string
}

/** How far into a kept bill its units are looked for (they follow the short source part). */
const HEAD_BYTES = 256 * 1024

/**
 * The units of a kept BOQ JSON, read from its head: the engine writes `units` before the bill,
 * so a bill of megabytes is not parsed whole on the thread answering requests. Undefined when
 * they cannot be read (the caller says that drawing cannot join).
 */
export function keptUnits(json: Uint8Array): KeptUnits | undefined {
  const head = new TextDecoder().decode(json.subarray(0, HEAD_BYTES))
  const start = topLevelKey(head, 'units')
  if (start === undefined) return undefined
  const end = objectEnd(head, start)
  if (end === undefined) return undefined
  try {
    const units = JSON.parse(head.slice(start, end)) as Record<string, unknown>
    const { length, area } = units
    return typeof length === 'string' && typeof area === 'string' ? { length, area } : undefined
  } catch {
    return undefined
  }
}

/** Where the value of `key` in the top-level object starts (an object), or undefined. */
function topLevelKey(text: string, key: string): number | undefined {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      const close = stringEnd(text, i)
      if (close === undefined) return undefined
      if (depth === 1 && text.slice(i + 1, close) === key) {
        const colon = text.indexOf(':', close)
        const value = text.slice(colon + 1).search(/\S/)
        const at = colon + 1 + value
        return text[at] === '{' ? at : undefined
      }
      i = close
    } else if (char === '{' || char === '[') depth++
    else if (char === '}' || char === ']') depth--
  }
  return undefined
}

/** The index just past the object starting at `start`. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      const close = stringEnd(text, i)
      if (close === undefined) return undefined
      i = close
    } else if (char === '{' || char === '[') depth++
    else if (char === '}' || char === ']') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return undefined
}

/** The index of the quote closing the string opened at `open`. */
function stringEnd(text: string, open: number): number | undefined {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
  }
  return undefined
}
