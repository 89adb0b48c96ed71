import type { LocationsPreview as Preview } from '#contract/locations-preview.ts'
import { formatItemQuantity } from '../../../lib/format-amount'

/** The most zones listed by name: a drawing of thousands says how many, not each. */
const MAX_LISTED = 200

/**
 * What the editor's unsaved locations find in a finished job's drawing: per row how many zones
 * (and how many without a label), the zones' names and figures, and what the read warned of.
 */
export function LocationsPreview({ preview }: { preview: Preview }) {
  const { units } = preview
  const listed = preview.zones.slice(0, MAX_LISTED)
  return (
    <div className="flex flex-col gap-3 text-sm">
      <ul aria-label="Zones per row" className="list-disc pl-5">
        {preview.rows.map((row) => (
          <li key={row.row}>
            Row {row.row}: {zonesWord(row.zones)}
            {row.unnamed > 0 ? `, ${row.unnamed.toLocaleString('en')} without a name` : ''}
          </li>
        ))}
      </ul>
      {preview.zones.length === 0 ? (
        <p className="text-slate-600">No zones found in this drawing.</p>
      ) : (
        <table aria-label="Zones found" className="border-collapse text-left">
          <thead>
            <tr className="text-xs text-slate-500">
              <th className="px-2">Zone</th>
              <th className="px-2">Layer</th>
              <th className="px-2">Row</th>
              <th className="px-2 text-right">Area ({units.area})</th>
              <th className="px-2 text-right">Perimeter ({units.length})</th>
              <th className="px-2">Name from</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((zone) => (
              <tr key={zone.id} className="border-t border-slate-200">
                <td className="px-2">{zone.path}</td>
                <td className="px-2">{zone.layer}</td>
                <td className="px-2">{zone.row}</td>
                <td className="px-2 text-right tabular-nums">{formatItemQuantity(zone.area)}</td>
                <td className="px-2 text-right tabular-nums">
                  {formatItemQuantity(zone.perimeter)}
                </td>
                <td className="px-2">{labelWords(zone.label)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.zones.length > listed.length ? (
        <p className="text-slate-600">
          The first {listed.length.toLocaleString('en')} of{' '}
          {preview.zones.length.toLocaleString('en')} zones.
        </p>
      ) : null}
      {preview.warnings.length > 0 ? (
        <ul aria-label="Preview warnings" className="list-disc pl-5 text-amber-800">
          {preview.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function zonesWord(count: number): string {
  return count === 1 ? '1 zone' : `${count.toLocaleString('en')} zones`
}

function labelWords(label: Preview['zones'][number]['label']): string {
  if (label.source === 'attribute') return `attribute ${label.tag ?? ''}`.trim()
  if (label.source === 'none') return 'no label'
  return label.source
}
