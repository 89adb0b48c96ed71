import { Link } from '@tanstack/react-router'
import type { BillDrawing } from '#contract/project-bills.ts'
import { STATE_WORDS } from '../utils/bill-words'

/** The bill's drawings and what each is: its version billed, its result, why not. */
export function BillDrawings({ drawings }: { drawings: readonly BillDrawing[] }) {
  return (
    <table className="min-w-full text-sm" aria-label="Drawings">
      <thead>
        <tr className="border-b border-slate-300 text-left">
          <th className="px-2 py-1">Drawing</th>
          <th className="px-2 py-1">Version billed</th>
          <th className="px-2 py-1">State</th>
        </tr>
      </thead>
      <tbody>
        {drawings.map((drawing) => (
          <tr key={drawing.itemId} className="border-b border-slate-100 align-top">
            <td className="px-2 py-1">
              {drawing.jobId && drawing.versionNumber !== null ? (
                <Link
                  to="/jobs/$jobId"
                  params={{ jobId: drawing.jobId }}
                  className="text-sky-700 underline"
                >
                  {drawing.fileName}
                </Link>
              ) : (
                drawing.fileName
              )}
            </td>
            <td className="px-2 py-1">{drawing.versionNumber ?? '—'}</td>
            <td className="px-2 py-1">
              <span className="font-medium">{STATE_WORDS[drawing.state]}</span>
              {drawing.reason ? (
                <span className="block text-slate-600">{drawing.reason}</span>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
