import type { HandleZones, ZonePart } from '#contract/locations.ts'
import type { BillBreakdownRow, BillLine, Boq, BoqReference } from '../model/schema.ts'
import { attributeOf, keyed, NONE, type Piece } from './piece.ts'

/**
 * The measured pieces of a kept result, the bill its truth: every line's quantity is shared out
 * among its pieces to the last unit, so rules can neither lose nor double anything. Placed
 * references come one by one from the references list where it says which line they are in;
 * whatever a line has beyond them (references past the list's cap, nested references whose
 * line the list cannot tell) is one piece per line and layer. Linework and areas are one piece
 * per entity where the result keeps each entity's figure; a result kept before that has only a
 * sum per layer and kind, and each breakdown row is then one piece.
 */
export function piecesOf(boq: Boq): { pieces: Piece[]; warnings: string[] } {
  const warnings: string[] = []
  const counts = boq.bill.filter((line) => line.kind === 'count')
  // Pushed one by one after: a spread of 100,000 pieces would pass them all as arguments.
  const pieces = countPieces(counts, boq.references)
  let together = 0
  for (const line of boq.bill) {
    if (line.kind === 'count') continue
    for (const row of line.breakdown) {
      if (keptOneByOne(row)) {
        row.handles.forEach((_, i) => {
          pieces.push(entityPiece(line, row, i))
        })
        continue
      }
      const piece = measuredPiece(line, row)
      if (piece.together) together++
      pieces.push(piece)
    }
  }
  if (together > 0) {
    warnings.push(
      'Some linework or areas are kept per layer and kind, not per entity (a result kept before entities were measured one by one, or entities without a handle): a formula runs once on each such layer and kind, over all its entities together.',
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
  /** Made when first asked: most slots are never asked. */
  handles: Set<string> | null
  /** Handles of the references given one by one from it. */
  given: Set<string> | null
  /** With zones: what is left of the row by zone once the pieces given from it are taken. */
  zonesLeft: Map<string | null, number> | null
}

function countPieces(lines: BillLine[], references: BoqReference[]): Piece[] {
  const slots = new Map<string, Slot[]>()
  for (const line of lines) {
    for (const row of line.breakdown) {
      const key = `${line.block}\u0000${row.layer}`
      const list = slots.get(key) ?? []
      list.push({ line, row, left: row.count, handles: null, given: null, zonesLeft: null })
      slots.set(key, list)
    }
  }
  const pieces: Piece[] = []
  const take = (piece: Piece, handle: string, own: boolean, fits: (line: BillLine) => boolean) => {
    const candidates = (slots.get(`${piece.block}\u0000${piece.layer}`) ?? []).filter(
      (slot) => holds(slot, handle) && fits(slot.line),
    )
    // Nested references of a line split by values could be in any of them: left to the rest.
    if (candidates.length !== 1) return
    const slot = candidates[0]
    if (slot.left < piece.count) return
    slot.left -= piece.count
    if (slot.row.byZone && piece.zone !== undefined) {
      slot.zonesLeft ??= new Map(slot.row.byZone.map((part) => [part.zone, part.quantity]))
      slot.zonesLeft.set(piece.zone, (slot.zonesLeft.get(piece.zone) ?? 0) - piece.count)
    }
    if (own) {
      slot.given ??= new Set()
      slot.given.add(handle)
    }
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

function holds(slot: Slot, handle: string): boolean {
  if (slot.row.handles.length <= 8) return slot.row.handles.includes(handle)
  slot.handles ??= new Set(slot.row.handles)
  return slot.handles.has(handle)
}

/** A line split by attributes or visibility holds the references with its values. */
function valuesFit(line: BillLine, piece: Piece): boolean {
  for (const [tag, value] of Object.entries(line.values ?? {})) {
    const own = tag.toLowerCase() === 'visibility' ? piece.visibility : attributeOf(piece, tag)
    if ((own ?? '') !== value) return false
  }
  return true
}

function referencePiece(ref: BoqReference): Piece {
  return keyed({
    match: 'count',
    line: '',
    description: '',
    block: ref.block,
    layer: ref.layer,
    attributes: ref.attributes,
    ...(ref.properties.visibility !== undefined ? { visibility: ref.properties.visibility } : {}),
    properties: ref.properties,
    count: ref.count,
    quantity: ref.count,
    handles: [ref.handle],
    together: ref.count > 1,
    origin: 'reference',
    ...(ref.zone !== undefined ? { zone: ref.zone } : {}),
  })
}

/** References nested in a placed one: the list keeps their block and number, no values. */
function nestedPiece(ref: BoqReference, nested: { block: string; count: number }): Piece {
  return keyed({
    match: 'count',
    line: '',
    description: '',
    block: nested.block,
    layer: ref.layer,
    attributes: NONE,
    properties: NONE,
    count: nested.count,
    quantity: nested.count,
    handles: [ref.handle],
    together: true,
    origin: 'nested',
    ...(ref.zone !== undefined ? { zone: ref.zone } : {}),
  })
}

/** What a count line and layer has beyond the references given one by one. */
function restPiece(slot: Slot): Piece {
  const { line, row } = slot
  // fromEntries makes own properties of any name, `__proto__` included.
  const entries = Object.entries(line.values ?? {})
  const isVisibility = ([tag]: [string, string]) => tag.toLowerCase() === 'visibility'
  const attributes = Object.fromEntries(entries.filter((e) => !isVisibility(e)))
  const properties = Object.fromEntries(
    entries.filter(isVisibility).map(([, v]) => ['visibility', v]),
  )
  const visibility = properties.visibility
  const handles = slot.given ? row.handles.filter((h) => !slot.given?.has(h)) : row.handles
  return keyed({
    match: 'count',
    line: line.ref,
    description: line.description,
    block: line.block,
    layer: row.layer,
    attributes,
    ...(visibility !== undefined ? { visibility } : {}),
    properties,
    count: slot.left,
    quantity: slot.left,
    handles: handles.length > 0 ? handles : row.handles,
    together: slot.left > 1,
    origin: 'rest',
    ...restZones(slot),
  })
}

/**
 * The rest of a count row by zone: the row's sums by zone less the pieces given from it (each
 * in its reference's zone), shared over what is left (a kept result's rounding never making a
 * zone's part negative).
 */
function restZones(slot: Slot) {
  const { row, left } = slot
  if (!row.byZone) return {}
  const parts = slot.zonesLeft ?? new Map(row.byZone.map((part) => [part.zone, part.quantity]))
  let total = 0
  for (const q of parts.values()) if (q > 0) total += q
  if (!(total > 0)) return { zone: null }
  const zones: ZonePart[] = []
  for (const [zone, q] of parts) if (q > 0) zones.push({ zone, quantity: (q / total) * left })
  return zones.length === 1 ? { zone: zones[0].zone } : { zones }
}

/** Every entity of the row has its own figure (and, for areas, its perimeter). */
function keptOneByOne(row: BillBreakdownRow): boolean {
  const { quantities, perimeters, handles } = row
  if (quantities === undefined || quantities.length !== row.count) return false
  if (handles.length !== row.count) return false
  return perimeters === undefined || perimeters.length === row.count
}

function entityKind(row: BillBreakdownRow): string | undefined {
  return row.kind === 'closed polyline' ? 'polyline' : row.kind
}

/** One entity of a breakdown row, with its own figures. */
function entityPiece(line: BillLine, row: BillBreakdownRow, i: number): Piece {
  const kind = entityKind(row)
  const perimeter = row.perimeters?.[i]
  return keyed({
    match: line.kind,
    line: line.ref,
    description: line.description,
    layer: row.layer,
    ...(kind !== undefined ? { kind } : {}),
    attributes: NONE,
    properties: NONE,
    count: 1,
    quantity: row.quantities?.[i] ?? 0,
    ...(perimeter !== undefined ? { perimeter } : {}),
    handles: [row.handles[i]],
    together: false,
    origin: 'measured',
    what: `${row.kind ?? 'entity'} (entity ${row.handles[i]})`,
    ...entityZones(row.zones?.[i]),
  })
}

/** An entity's place as its row keeps it: one zone, or its parts. */
function entityZones(place: HandleZones | undefined): Pick<Piece, 'zone' | 'zones'> {
  if (place === undefined) return {}
  return Array.isArray(place) ? { zones: place } : { zone: place }
}

function measuredPiece(line: BillLine, row: BillBreakdownRow): Piece {
  const kind = entityKind(row)
  return keyed({
    match: line.kind,
    line: line.ref,
    description: line.description,
    layer: row.layer,
    ...(kind !== undefined ? { kind } : {}),
    attributes: NONE,
    properties: NONE,
    count: row.count,
    quantity: row.quantity,
    handles: row.handles,
    together: row.count > 1,
    origin: 'measured',
    what: row.label,
    ...(row.byZone ? { zones: row.byZone } : {}),
  })
}
