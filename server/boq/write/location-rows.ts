import type { ByZone } from '#contract/locations.ts'
import type { Boq } from '../model/schema.ts'
import type { Cell, Table } from './table.ts'

/**
 * With locations, two tables for the CSV and the workbook alike: By location (the priced items,
 * then the measured lines, a column per zone, Unallocated and Total) and Rooms (the room
 * schedule: each zone's name, path, layer, area and perimeter). None without locations.
 */

export const BY_LOCATION_SHEET = 'By location'
export const ROOMS_SHEET = 'Rooms'

/** Columns before the zones' in By location. */
export const LEADING_COLUMNS = 4

function row(byZone: ByZone | undefined, zoneIds: string[], total: number): Cell[] {
  const parts = new Map<string | null, number>()
  for (const part of byZone ?? []) parts.set(part.zone, (parts.get(part.zone) ?? 0) + part.quantity)
  const cells: Cell[] = zoneIds.map((id) => parts.get(id) ?? 0)
  cells.push(parts.get(null) ?? (byZone ? 0 : total), total)
  return cells
}

export function locationTables(boq: Boq): Table[] {
  const zones = boq.zones
  if (!zones) return []
  const ids = zones.map((z) => z.id)
  const rows: Cell[][] = []
  for (const item of boq.priced?.items ?? []) {
    rows.push([
      `item ${item.ref}`,
      item.code,
      item.description,
      item.unit,
      ...row(item.byZone, ids, item.measuredQuantity),
    ])
  }
  for (const line of boq.bill) {
    rows.push([line.ref, '', line.description, line.unit, ...row(line.byZone, ids, line.quantity)])
  }
  const byLocation: Table = {
    name: BY_LOCATION_SHEET,
    columns: [
      { header: 'Item', format: 'text' },
      { header: 'Code', format: 'text' },
      { header: 'Description', format: 'text' },
      { header: 'Unit', format: 'text' },
      ...zones.map((z) => ({ header: z.path, format: 'measure' as const })),
      { header: 'Unallocated', format: 'measure' },
      { header: 'Total', format: 'measure' },
    ],
    rows,
    empty: 'Nothing measured.',
    notes: [],
  }
  const rooms: Table = {
    name: ROOMS_SHEET,
    columns: [
      { header: 'Zone', format: 'text' },
      { header: 'Name', format: 'text' },
      { header: 'Path', format: 'text' },
      { header: 'Layer', format: 'text' },
      { header: `Area (${boq.units.area})`, format: 'measure' },
      { header: `Perimeter (${boq.units.length})`, format: 'measure' },
      { header: 'Named by', format: 'text' },
    ],
    rows: zones.map((z) => [
      z.id,
      z.name,
      z.path,
      z.layer,
      z.area,
      z.perimeter,
      z.label.source === 'attribute' ? `attribute ${z.label.tag}` : z.label.source,
    ]),
    empty: 'No zones found.',
    notes: [],
  }
  return [byLocation, rooms]
}
