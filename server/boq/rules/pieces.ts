import type { BillBreakdownRow, BillLine, Boq, BoqReference } from '../schema.ts'
import { variableName } from './formula.ts'
import type { Piece } from './piece.ts'

/**
 * The measured pieces of a kept result, the bill its truth: every line's quantity is shared out
 * among its pieces to the last unit, so rules can neither lose nor double anything. Placed
 * references come one by one from the references list where it says which line they are in;
 * whatever a line has beyond them (references past the list's cap, nested references whose
 * line the list cannot tell) is one piece per line and layer. Linework and areas are kept per
 * layer and kind, so each breakdown row is one piece.
 */
export function piecesOf(boq: Boq): { pieces: Piece[]; warnings: string[] } {
  const pieces: Piece[] = []
  const warnings: string[] = []
  const counts = boq.bill.filter((line) => line.kind === 'count')
  pieces.push(...countPieces(counts, boq.references))
  let together = 0
  for (const line of boq.bill) {
    if (line.kind === 'count') continue
    for (const row of line.breakdown) {
      const piece = measuredPiece(line, row)
      if (piece.together) together++
      pieces.push(piece)
    }
  }
  if (together > 0) {
    warnings.push(
      'Linework and areas are kept per layer and kind, not per entity: a formula runs once on each layer and kind, over all its entities together.',
    )
  }
  if (boq.referencesCapped) {
    warnings.push(
      'Not every reference is listed in the measured result: those beyond the list are priced per bill line and layer, with the values the line was split by.',
    )
  }
  return { pieces, warnings }
}

type Slot = {
  line: BillLine
  row: BillBreakdownRow
  left: number
  handles: Set<string>
  /** Handles of the references given one by one from it. */
  given: Set<string>
}

function countPieces(lines: BillLine[], references: BoqReference[]): Piece[] {
  const slots = new Map<string, Slot[]>()
  for (const line of lines) {
    for (const row of line.breakdown) {
      const key = `${line.block}\u0000${row.layer}`
      const list = slots.get(key) ?? []
      list.push({ line, row, left: row.count, handles: new Set(row.handles), given: new Set() })
      slots.set(key, list)
    }
  }
  const pieces: Piece[] = []
  const take = (piece: Piece, handle: string, own: boolean, fits: (line: BillLine) => boolean) => {
    const candidates = (slots.get(`${piece.block}\u0000${piece.layer}`) ?? []).filter(
      (slot) => slot.handles.has(handle) && fits(slot.line),
    )
    // Nested references of a line split by values could be in any of them: left to the rest.
    if (candidates.length !== 1) return
    const slot = candidates[0]
    if (slot.left < piece.count) return
    slot.left -= piece.count
    if (own) slot.given.add(handle)
    piece.line = slot.line.ref
    piece.description = slot.line.description
    pieces.push(piece)
  }
  for (const ref of references) {
    const own = referencePiece(ref)
    take(own, ref.handle, true, (line) => valuesFit(line, own))
    for (const nested of ref.nested) take(nestedPiece(ref, nested), ref.handle, false, () => true)
  }
  for (const list of slots.values())
    for (const slot of list) if (slot.left > 0) pieces.push(restPiece(slot))
  return pieces
}

/** A line split by attributes or visibility holds the references with its values. */
function valuesFit(line: BillLine, piece: Piece): boolean {
  for (const [tag, value] of Object.entries(line.values ?? {})) {
    const own =
      tag.toLowerCase() === 'visibility'
        ? piece.visibility
        : piece.attributes.get(tag.toUpperCase())
    if ((own ?? '') !== value) return false
  }
  return true
}

function referencePiece(ref: BoqReference): Piece {
  const attributes = new Map<string, string>()
  const values = new Map<string, string>()
  for (const [name, value] of Object.entries(ref.properties)) values.set(variableName(name), value)
  for (const [tag, value] of Object.entries(ref.attributes)) {
    attributes.set(tag.toUpperCase(), value)
    values.set(variableName(tag), value)
  }
  return {
    match: 'count',
    line: '',
    description: '',
    block: ref.block,
    layer: ref.layer,
    attributes,
    ...(ref.properties.visibility !== undefined ? { visibility: ref.properties.visibility } : {}),
    values,
    count: ref.count,
    quantity: ref.count,
    handles: [ref.handle],
    together: ref.count > 1,
    label: `reference ${ref.handle}`,
  }
}

/** References nested in a placed one: the list keeps their block and number, no values. */
function nestedPiece(ref: BoqReference, nested: { block: string; count: number }): Piece {
  return {
    match: 'count',
    line: '',
    description: '',
    block: nested.block,
    layer: ref.layer,
    attributes: new Map(),
    values: new Map(),
    count: nested.count,
    quantity: nested.count,
    handles: [ref.handle],
    together: true,
    label: `${nested.block} nested in reference ${ref.handle}`,
  }
}

/** What a count line and layer has beyond the references given one by one. */
function restPiece(slot: Slot): Piece {
  const { line, row } = slot
  const attributes = new Map<string, string>()
  const values = new Map<string, string>()
  let visibility: string | undefined
  for (const [tag, value] of Object.entries(line.values ?? {})) {
    if (tag.toLowerCase() === 'visibility') visibility = value
    else attributes.set(tag.toUpperCase(), value)
    values.set(variableName(tag), value)
  }
  const handles = row.handles.filter((h) => !slot.given.has(h))
  return {
    match: 'count',
    line: line.ref,
    description: line.description,
    block: line.block,
    layer: row.layer,
    attributes,
    ...(visibility !== undefined ? { visibility } : {}),
    values,
    count: slot.left,
    quantity: slot.left,
    handles: handles.length > 0 ? handles : row.handles,
    together: slot.left > 1,
    label: `${slot.left} of ${line.ref} (${line.description}) on layer ${row.layer}`,
  }
}

function measuredPiece(line: BillLine, row: BillBreakdownRow): Piece {
  const kind = row.kind === 'closed polyline' ? 'polyline' : row.kind
  return {
    match: line.kind,
    line: line.ref,
    description: line.description,
    layer: row.layer,
    ...(kind !== undefined ? { kind } : {}),
    attributes: new Map(),
    values: new Map(),
    count: row.count,
    quantity: row.quantity,
    handles: row.handles,
    together: row.count > 1,
    label: `${row.count} ${row.label} on layer ${row.layer} (${line.ref})`,
  }
}
