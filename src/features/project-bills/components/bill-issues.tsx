import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { formatDateTime } from '../../../lib/format-date'
import { errorText } from '../../../lib/http-errors'
import {
  type BillIssue,
  type CompareTo,
  projectBillDownloads,
  projectBillQueries,
} from '../api/project-bills-api'
import { ChangeBillTable } from './change-bill-table'

/** The bill's issues, each with its files as issued, and any two (or one and now) compared. */
export function BillIssues({
  projectId,
  billId,
  issues,
}: {
  projectId: string
  billId: string
  issues: readonly BillIssue[]
}) {
  const [from, setFrom] = useState<number | null>(null)
  const [to, setTo] = useState<CompareTo>('current')
  const [asked, setAsked] = useState<{ from: number; to: CompareTo } | null>(null)
  const changes = useQuery({
    ...projectBillQueries.compare(projectId, billId, asked?.from ?? 0, asked?.to ?? 'current'),
    enabled: asked !== null,
  })
  if (issues.length === 0) return <p className="text-sm text-slate-600">Not issued yet.</p>
  const fromNumber = from ?? issues[0].number
  return (
    <div className="flex flex-col gap-3">
      <ul className="text-sm">
        {issues.map((issue) => (
          <li key={issue.number}>
            Issue {issue.number}: {issue.name}, by {issue.issuedBy} at{' '}
            {formatDateTime(issue.issuedAt)} ·{' '}
            <a
              className="text-sky-700 underline"
              href={projectBillDownloads.issue(projectId, billId, issue.number, 'xlsx')}
            >
              Workbook
            </a>{' '}
            ·{' '}
            <a
              className="text-sky-700 underline"
              href={projectBillDownloads.issue(projectId, billId, issue.number, 'csv')}
            >
              CSV
            </a>
          </li>
        ))}
      </ul>
      <form
        className="flex flex-wrap items-end gap-2 text-sm"
        onSubmit={(event) => {
          event.preventDefault()
          setAsked({ from: fromNumber, to })
        }}
      >
        <label className="flex flex-col gap-1">
          From
          <select
            className="rounded border border-slate-300 px-2 py-1"
            value={fromNumber}
            onChange={(event) => setFrom(Number(event.target.value))}
          >
            {issues.map((issue) => (
              <option key={issue.number} value={issue.number}>
                Issue {issue.number} ({issue.name})
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          To
          <select
            className="rounded border border-slate-300 px-2 py-1"
            value={String(to)}
            onChange={(event) =>
              setTo(event.target.value === 'current' ? 'current' : Number(event.target.value))
            }
          >
            <option value="current">Now</option>
            {issues.map((issue) => (
              <option key={issue.number} value={issue.number}>
                Issue {issue.number} ({issue.name})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded border border-slate-400 px-3 py-1">
          Compare
        </button>
      </form>
      {changes.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(changes.error)}
        </p>
      ) : null}
      {asked && changes.data ? (
        <>
          <ChangeBillTable changes={changes.data} />
          <a
            className="text-sm text-sky-700 underline"
            href={projectBillDownloads.compare(projectId, billId, asked.from, asked.to, 'xlsx')}
          >
            Download the change bill
          </a>
        </>
      ) : null}
    </div>
  )
}
