/** A job's progress, 0–100, as a bar a screen reader reads (`Progress of plan.dwg`). */
export function ProgressBar({
  label,
  percent,
  className = '',
}: {
  label: string
  percent: number
  className?: string
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={`h-2 overflow-hidden rounded bg-slate-200 ${className}`}
    >
      <div className="h-full bg-sky-600 transition-all" style={{ width: `${percent}%` }} />
    </div>
  )
}
