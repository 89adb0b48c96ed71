import { useId } from 'react'
import {
  STATED_LABELS,
  STATED_UNITS,
  SYSTEM_LABELS,
  UNIT_SYSTEMS,
  type UnitsChoice,
} from '../utils/units-choice'

const SELECT =
  'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800 focus:outline-2 focus:outline-sky-600'

/** The bill's units for the next extraction: two labelled native selects. */
export function UnitsFields({
  value,
  onChange,
}: {
  value: UnitsChoice
  onChange(next: UnitsChoice): void
}) {
  const id = useId()
  return (
    <div className="flex flex-col gap-2 text-sm text-slate-700">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-system`}>Units</label>
        <select
          id={`${id}-system`}
          className={SELECT}
          value={value.system}
          onChange={(e) => onChange({ ...value, system: e.target.value as UnitsChoice['system'] })}
        >
          <option value="">By the drawing</option>
          {UNIT_SYSTEMS.map((system) => (
            <option key={system} value={system}>
              {SYSTEM_LABELS[system]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-drawing`}>If the drawing has no units</label>
        <select
          id={`${id}-drawing`}
          className={SELECT}
          value={value.drawingUnits}
          onChange={(e) =>
            onChange({ ...value, drawingUnits: e.target.value as UnitsChoice['drawingUnits'] })
          }
        >
          <option value="">Leave as drawing units</option>
          {STATED_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {STATED_LABELS[unit]}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}
