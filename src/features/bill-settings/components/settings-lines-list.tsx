import type { SettingLine } from '../utils/settings-lines'

/** Settings as a list of what and its value, read-only. */
export function SettingLinesList({ label, lines }: { label: string; lines: SettingLine[] }) {
  return (
    <dl aria-label={label} className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5">
      {lines.map((line) => (
        <div key={line.label} className="contents">
          <dt className="text-slate-500">{line.label}</dt>
          <dd className="text-slate-800">{line.text}</dd>
        </div>
      ))}
    </dl>
  )
}
