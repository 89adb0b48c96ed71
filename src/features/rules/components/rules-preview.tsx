import type { PricedBill } from '#contract/takeoff-rules.ts'
import { formatAmount, formatItemQuantity } from '../../../lib/format-amount'

export type PreviewJob = { id: string; label: string }

/** The choice of a finished job of the project to price the editor's rules against. */
export function PreviewJobSelect({
  jobs,
  jobId,
  onJob,
}: {
  jobs: PreviewJob[]
  jobId: string
  onJob(jobId: string): void
}) {
  if (jobs.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No finished extraction of this project yet: the preview needs one.
      </p>
    )
  }
  return (
    <label className="flex items-center gap-2 text-sm">
      Preview against
      <select
        value={jobId}
        onChange={(event) => onJob(event.target.value)}
        className="rounded border border-slate-300 px-2 py-1"
      >
        {jobs.map((job) => (
          <option key={job.id} value={job.id}>
            {job.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/** What the editor's rules make of a job's measurements: items, what is left over, the total. */
export function RulesPreview({ priced }: { priced: PricedBill }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      {priced.items.length === 0 ? (
        <p className="text-slate-600">No rule takes anything yet.</p>
      ) : (
        <table aria-label="Preview items" className="border-collapse text-left">
          <thead>
            <tr className="text-xs text-slate-500">
              <th className="px-2">Item</th>
              <th className="px-2">Code</th>
              <th className="px-2">Description</th>
              <th className="px-2">Rules</th>
              <th className="px-2 text-right">Quantity</th>
              <th className="px-2">Unit</th>
              <th className="px-2 text-right">Rate</th>
              <th className="px-2 text-right">Amount</th>
            </tr>
          </thead>
          <tbody>
            {priced.items.map((item) => (
              <tr key={item.ref} className="border-t border-slate-200">
                <td className="px-2">{item.ref}</td>
                <td className="px-2">{item.code}</td>
                <td className="px-2">{item.description}</td>
                <td className="px-2">{item.rules.join(', ')}</td>
                <td className="px-2 text-right tabular-nums">
                  {formatItemQuantity(item.quantity)}
                </td>
                <td className="px-2">{item.unit}</td>
                <td className="px-2 text-right tabular-nums">
                  {item.rate === null ? '—' : formatAmount(item.rate)}
                </td>
                <td className="px-2 text-right tabular-nums">
                  {item.amount === null ? '—' : formatAmount(item.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="font-semibold">Total {formatAmount(priced.total)}</p>
      {priced.notClassified.length > 0 ? (
        <div>
          <h3 className="font-medium text-slate-700">
            Not classified ({priced.notClassified.length})
          </h3>
          <ul aria-label="Not classified" className="list-disc pl-5">
            {priced.notClassified.map((line) => (
              <li key={`${line.line}:${line.block ?? ''}:${line.layer}:${line.kind ?? ''}`}>
                {line.line} {line.description}: {formatItemQuantity(line.quantity)} {line.unit}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {priced.ignored.length > 0 ? (
        <p className="text-slate-600">
          Left out on purpose:{' '}
          {priced.ignored.map((line) => `${line.line} (rule ${line.rule})`).join(', ')}
        </p>
      ) : null}
      {priced.warnings.map((warning) => (
        <p key={warning} className="text-amber-800">
          {warning}
        </p>
      ))}
    </div>
  )
}
