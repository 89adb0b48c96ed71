import type { ZonePart } from '#contract/locations.ts'
import type { RuleMatch } from '#contract/takeoff-rules.ts'
import { type Lookup, MissingValue, variableName } from './formula.ts'
import { lower } from './glob.ts'

/**
 * One measured piece a rule takes whole: a placed reference, linework, an area. Figures are in
 * the bill's units. When the kept result has only a sum of several entities, the piece is that
 * sum (`together`), never a share of it guessed at.
 */
export type Piece = {
  match: RuleMatch
  /** The measured bill line it belongs to (A1, B2…) and that line's description. */
  line: string
  description: string
  block?: string
  layer: string
  /** Linework: line, arc, …; areas: hatch or polyline. */
  kind?: string
  /** Attribute values by tag, as the drawing has them (shared with the result, not copied). */
  attributes: Readonly<Record<string, string>>
  visibility?: string
  /** Dynamic properties by name (`visibility`), shared likewise. */
  properties: Readonly<Record<string, string>>
  /** References or entities measured. */
  count: number
  /** count, length or area (a zone's: its area). */
  quantity: number
  /** Areas: the boundary's length, when kept. */
  perimeter?: number
  handles: string[]
  together: boolean
  /** Where it comes from, to name it in messages (labelOf): made only when one is needed. */
  origin: 'reference' | 'nested' | 'rest' | 'measured' | 'zone'
  /** Measured pieces: the breakdown row's label (`lines`, `hatches`). */
  what?: string
  /**
   * With locations: the zone holding all of the piece (null: none holds it), or its quantity by
   * zone, the parts adding up to it (a piece cut by zone boundaries, a rest of many).
   */
  zone?: string | null
  zones?: readonly ZonePart[]
  /** What filters test, in lower case: once per piece, not once per rule. */
  keys: PieceKeys
}

export type PieceKeys = {
  block?: string
  layer: string
  kind?: string
  visibility?: string
  /** The zone holding the piece, its name and path (when rules filter by zone). */
  zone?: { name: string; path: string }
}

/** Linework and areas have no attributes or properties: one empty record for all of them. */
export const NONE: Readonly<Record<string, string>> = Object.freeze({})

/** A piece with its keys, made on the piece itself (there are many pieces). */
export function keyed(piece: Omit<Piece, 'keys'>): Piece {
  const keys: PieceKeys = { layer: lower(piece.layer) }
  if (piece.block !== undefined) keys.block = lower(piece.block)
  if (piece.kind !== undefined) keys.kind = lower(piece.kind)
  if (piece.visibility !== undefined) keys.visibility = lower(piece.visibility)
  const withKeys = piece as Piece
  withKeys.keys = keys
  return withKeys
}

const BUILT_IN: Record<RuleMatch, readonly string[]> = {
  count: ['count'],
  length: ['count', 'length'],
  area: ['count', 'area', 'perimeter'],
  zone: ['count', 'area', 'perimeter'],
}

export const ALL_MEASURES = ['count', 'length', 'area', 'perimeter'] as const

/** The variables every piece of a match has. */
export function builtInVariables(match: RuleMatch): readonly string[] {
  return BUILT_IN[match]
}

/** What a piece is, for a person: `reference 1F`, `4 lines on layer Walls (B1)`. */
export function labelOf(piece: Piece): string {
  switch (piece.origin) {
    case 'reference':
      return `reference ${piece.handles[0]}`
    case 'nested':
      return `${piece.block} nested in reference ${piece.handles[0]}`
    case 'rest':
      return `${piece.count} of ${piece.line} (${piece.description}) on layer ${piece.layer}`
    case 'measured':
      return `${piece.count} ${piece.what} on layer ${piece.layer} (${piece.line})`
    case 'zone':
      return `zone ${piece.description} (${piece.line})`
  }
}

/** Variables of one piece for its formulas: measures first, then its attributes and properties. */
export function lookupOf(piece: Piece): Lookup {
  return (name) => {
    switch (name) {
      case 'count':
        return piece.count
      case 'length':
        if (piece.match === 'length') return piece.quantity
        break
      case 'area':
        if (piece.match === 'area' || piece.match === 'zone') return piece.quantity
        break
      case 'perimeter':
        if (piece.perimeter !== undefined) return piece.perimeter
        throw new MissingValue(
          `the perimeter of ${labelOf(piece)} is not kept in the measured result`,
        )
    }
    const text = valueNamed(piece.attributes, name) ?? valueNamed(piece.properties, name)
    if (text === undefined) throw new MissingValue(`${labelOf(piece)} has no ${name}`)
    const value = numberOf(text)
    if (value === null)
      throw new MissingValue(`${name} is '${text}' on ${labelOf(piece)}, not a number`)
    return value
  }
}

/** An attribute's value by tag, case aside (a reference has a few). */
export function attributeOf(piece: Piece, tag: string): string | undefined {
  const upper = tag.toUpperCase()
  for (const [key, value] of Object.entries(piece.attributes))
    if (key.toUpperCase() === upper) return value
  return undefined
}

function valueNamed(record: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(record)) if (variableName(key) === name) return value
  return undefined
}

/** An attribute's text as a number: `900`, `0.9`, ` 1e3 `; a decimal comma is taken too. */
export function numberOf(text: string): number | null {
  const trimmed = text.trim().replace(/^([-+]?\d+),(\d+)$/, '$1.$2')
  if (trimmed === '') return null
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : null
}
