import type { Zone } from '#contract/locations.ts'
import { lower } from './glob.ts'
import { keyed, NONE, type Piece } from './piece.ts'

/**
 * Zones in pricing: each zone a piece of its own for `match: zone` rows (a room schedule: its
 * area, perimeter and room tag's values), and the measured pieces told apart by zone for rows
 * that filter by one.
 */

/** Every zone as a piece: its area the quantity, its room tag's values its attributes. */
export function zonePieces(zones: readonly Zone[]): Piece[] {
  return zones.map((zone) => {
    const piece = keyed({
      match: 'zone',
      line: zone.id,
      description: zone.path,
      layer: zone.layer,
      attributes: zone.attributes ?? NONE,
      properties: NONE,
      count: 1,
      quantity: zone.area,
      perimeter: zone.perimeter,
      handles: [zone.handle],
      together: false,
      origin: 'zone',
      zone: zone.id,
    })
    piece.keys.zone = { name: lower(zone.name), path: lower(zone.path) }
    return piece
  })
}

/**
 * The pieces as rows filtering by zone see them: each knows its zone's name and path, and one
 * that zone boundaries cut is a piece per part (its share of the quantity and perimeter, in
 * its zone; what no zone holds, a part with none), so that each part is priced by its own zone.
 */
export function piecesByZone(pieces: Piece[], zones: readonly Zone[]): Piece[] {
  const names = new Map(zones.map((z) => [z.id, { name: lower(z.name), path: lower(z.path) }]))
  const out: Piece[] = []
  for (const piece of pieces) {
    const parts = piece.zones
    if (!parts || parts.length === 0) {
      const zone = piece.zone ? names.get(piece.zone) : undefined
      if (zone) piece.keys.zone = zone
      out.push(piece)
      continue
    }
    let whole = 0
    for (const part of parts) whole += part.quantity
    for (const part of parts) {
      const share = whole > 0 ? part.quantity / whole : 1 / parts.length
      const perimeter =
        part.perimeter ?? (piece.perimeter === undefined ? undefined : piece.perimeter * share)
      const own: Piece = {
        ...piece,
        quantity: piece.quantity * share,
        ...(perimeter === undefined ? {} : { perimeter }),
        zone: part.zone,
        zones: undefined,
        keys: { ...piece.keys },
      }
      delete own.zones
      const zone = part.zone ? names.get(part.zone) : undefined
      if (zone) own.keys.zone = zone
      else delete own.keys.zone
      out.push(own)
    }
  }
  return out
}
