import type { Zone } from '#contract/locations.ts'
import { SpacerRows } from '../../../components/long-table/spacer-rows'
import {
  headClass,
  scrollerClass,
  useLongTable,
} from '../../../components/long-table/use-long-table'
import { formatMeasure } from '../../../lib/format-quantity'
import type { ZonePick } from '../utils/zone-figures'

/**
 * The zones a drawing's locations found, in the engine's order: each one's name (a button that
 * picks it), its path, area and perimeter in the bill's units. The picked one is marked. A drawing
 * of thousands of rooms draws only the rows in view.
 */
export function ZonesTable({
  zones,
  units,
  picked,
  onPick,
}: {
  zones: readonly Zone[]
  units: { area: string; length: string }
  picked: ZonePick | undefined
  onPick(zone: ZonePick): void
}) {
  const table = useLongTable(zones.length, (index) => zones[index]?.id ?? String(index))
  return (
    <div ref={table.scroller} className={scrollerClass(table.long)}>
      <table className="w-full text-sm">
        <caption className="sr-only">Zones</caption>
        <thead className={headClass(table.long)}>
          <tr className="border-b border-slate-300 text-left">
            <th scope="col" className="py-1 pr-2">
              Zone
            </th>
            <th scope="col" className="py-1 pr-2">
              Path
            </th>
            <th scope="col" className="py-1 pr-2 text-right">
              Area ({units.area})
            </th>
            <th scope="col" className="py-1 pr-2 text-right">
              Perimeter ({units.length})
            </th>
          </tr>
        </thead>
        <SpacerRows height={table.before} />
        <tbody>
          {table.drawn.map((index) => {
            const zone = zones[index] as Zone
            const chosen = picked === zone.id
            return (
              <tr
                key={zone.id}
                data-index={index}
                ref={table.measure}
                aria-selected={chosen}
                className={`border-b border-slate-100 ${chosen ? 'bg-sky-50' : ''}`}
              >
                <td className="py-1 pr-2">
                  <button
                    type="button"
                    aria-pressed={chosen}
                    onClick={() => onPick(zone.id)}
                    className="text-left text-sky-700 underline"
                  >
                    {zone.name}
                  </button>
                </td>
                <td className="py-1 pr-2">{zone.path}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatMeasure(zone.area)}</td>
                <td className="py-1 pr-2 text-right tabular-nums">
                  {formatMeasure(zone.perimeter)}
                </td>
              </tr>
            )
          })}
        </tbody>
        <SpacerRows height={table.after} />
      </table>
    </div>
  )
}
