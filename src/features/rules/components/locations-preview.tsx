import { useId } from 'react'
import type { LocationsPreview as Preview, PreviewRow } from '#contract/locations-preview.ts'
import { formatItemQuantity } from '../../../lib/format-amount'

/** The most zones listed by name: a drawing of thousands says how many, not each. */
const MAX_LISTED = 200

/**
 * What the editor's unsaved locations find in a finished job's drawing: per row how many zones
 * (and how many without a label) and what went wrong with them, the zones' names and figures,
 * and what else the read warned of.
 */
export function LocationsPreview({ preview }: { preview: Preview }) {
  const { units } = preview
  const listed = preview.zones.slice(0, MAX_LISTED)
  return (
    <div className="flex flex-col gap-3 text-sm">
      <RowsFound rows={preview.rows} />
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
      {/* What concerns no one row: each row's own are in its line above. */}
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

/**
 * A line per row of the table: its layers, the zones it found, and its own warnings in its last
 * cell, which also describes the line (a screen reader reads them with the row).
 */
function RowsFound({ rows }: { rows: PreviewRow[] }) {
  const id = useId()
  return (
    <table aria-label="Zones per row" className="border-collapse text-left">
      <thead>
        <tr className="text-xs text-slate-500">
          <th className="px-2">Row</th>
          <th className="px-2">Layers</th>
          <th className="px-2 text-right">Zones</th>
          <th className="px-2 text-right">Without a name</th>
          <th className="px-2">Warnings</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const warningsId = `${id}-row-${row.row}`
          const warned = row.warnings.length > 0
          return (
            <tr
              key={row.row}
              aria-describedby={warned ? warningsId : undefined}
              className="border-t border-slate-200 align-top"
            >
              <th scope="row" className="px-2 font-normal whitespace-nowrap">
                Row {row.row}
              </th>
              <td className="px-2">{row.layer}</td>
              <td className="px-2 text-right tabular-nums">{row.zones.toLocaleString('en')}</td>
              <td className="px-2 text-right tabular-nums">{row.unnamed.toLocaleString('en')}</td>
              <td className="px-2">
                {warned ? (
                  <ul
                    id={warningsId}
                    aria-label={`Row ${row.row} warnings`}
                    className="list-disc pl-4 text-amber-800"
                  >
                    {row.warnings.map((warning) => (
                      <li key={warning}>{warning}</li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-slate-500">None</span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

function labelWords(label: Preview['zones'][number]['label']): string {
  if (label.source === 'attribute') return `attribute ${label.tag ?? ''}`.trim()
  if (label.source === 'none') return 'no label'
  return label.source
}
