import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { BillDrawing } from '#contract/project-bills.ts'
import { rememberJob, startExtraction } from '../../features/jobs/api/jobs-api'
import {
  type AssembledBill,
  projectBillDownloads,
  projectBillQueries,
} from '../../features/project-bills/api/project-bills-api'
import { BillDrawings } from '../../features/project-bills/components/bill-drawings'
import { BillIssues } from '../../features/project-bills/components/bill-issues'
import { BillMeasuredTable } from '../../features/project-bills/components/bill-measured-table'
import { BillSummaryTable } from '../../features/project-bills/components/bill-summary-table'
import { IssueForm } from '../../features/project-bills/components/issue-form'
import { changeLines, unbilled } from '../../features/project-bills/utils/bill-words'
import { errorText } from '../../lib/http-errors'

/** How often a bill with drawings still extracting is asked again. */
const EXTRACTING_POLL_MS = 2000

/**
 * A project bill: what came in since the last issue, its drawings and their states (those with no
 * bill yet extracted in one click), the summary by drawing, issuing it, its issues compared, and
 * its downloads.
 */
export function ProjectBillPage({ projectId, billId }: { projectId: string; billId: string }) {
  const bill = useQuery({
    ...projectBillQueries.bill(projectId, billId),
    refetchInterval: (query) =>
      query.state.data?.drawings.some((drawing) => drawing.state === 'extracting')
        ? EXTRACTING_POLL_MS
        : false,
  })
  const issues = useQuery(projectBillQueries.issues(projectId, billId))
  const last = issues.data?.at(-1)
  if (bill.isError) {
    return (
      <div className="mx-auto max-w-5xl p-6">
        <p role="alert" className="text-red-700">
          {errorText(bill.error)}
        </p>
      </div>
    )
  }
  if (!bill.data) return <p className="p-6 text-slate-600">Assembling the bill…</p>
  const assembled = bill.data
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-6">
      <nav className="flex gap-4 text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
        <Link
          to="/projects/$projectId/bills"
          params={{ projectId }}
          className="text-sky-700 underline"
        >
          All project bills
        </Link>
      </nav>
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-xl font-semibold text-slate-800">{assembled.name}</h1>
        <a
          className="text-sm text-sky-700 underline"
          href={projectBillDownloads.bill(projectId, billId, 'xlsx')}
        >
          Download workbook
        </a>
        <a
          className="text-sm text-sky-700 underline"
          href={projectBillDownloads.bill(projectId, billId, 'csv')}
        >
          Download CSV
        </a>
      </div>
      {last ? (
        <SinceLastIssue
          projectId={projectId}
          billId={billId}
          number={last.number}
          name={last.name}
        />
      ) : null}
      <section className="flex flex-col gap-2">
        <h2 className="font-semibold text-slate-800">Drawings</h2>
        <ExtractUnbilled projectId={projectId} bill={assembled} />
        <BillDrawings drawings={assembled.drawings} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-semibold text-slate-800">Summary</h2>
        <BillSummaryTable bill={assembled} />
        {assembled.warnings.length > 0 ? (
          <ul className="text-sm text-amber-800">
            {assembled.warnings.map((warning) => (
              <li key={`${warning.itemId}\n${warning.warning}`}>
                {warning.fileName}: {warning.warning}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-semibold text-slate-800">Issues</h2>
        <IssueForm projectId={projectId} billId={billId} />
        <BillIssues projectId={projectId} billId={billId} issues={issues.data ?? []} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-semibold text-slate-800">Measured</h2>
        <BillMeasuredTable bill={assembled} />
      </section>
    </div>
  )
}

/** What came in since the last issue, drawing by drawing. */
function SinceLastIssue(props: {
  projectId: string
  billId: string
  number: number
  name: string
}) {
  const changes = useQuery(
    projectBillQueries.compare(props.projectId, props.billId, props.number, 'current'),
  )
  if (!changes.data) return null
  const lines = changeLines(changes.data)
  return (
    <section
      aria-label="Since the last issue"
      className="rounded border border-sky-200 bg-sky-50 p-3 text-sm"
    >
      <h2 className="font-semibold">
        Since issue {props.number} ({props.name})
      </h2>
      {lines.length === 0 ? (
        <p>Nothing has changed.</p>
      ) : (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** A drawing's states until its queued extraction is billed. */
const STILL_TO_BILL = new Set<BillDrawing['state']>(['no-bill', 'newer-version', 'extracting'])

/**
 * Extracts every drawing with no bill yet, one request each as Extract BOQ asks: those the
 * person's job limit refuses are said, with the server's words.
 */
function ExtractUnbilled({ projectId, bill }: { projectId: string; bill: AssembledBill }) {
  const queryClient = useQueryClient()
  const waiting = unbilled(bill.drawings)
  const extract = useMutation({
    mutationFn: async () => {
      const refused: string[] = []
      const queued: string[] = []
      for (const drawing of waiting) {
        try {
          const accepted = await startExtraction({
            fileName: drawing.fileName,
            fileStorageId: drawing.newestStorageId ?? '',
            fileFolderId: drawing.folderId ?? '',
            projectId,
          })
          await rememberJob(queryClient, accepted.job)
          queued.push(drawing.itemId)
        } catch (error) {
          refused.push(`${drawing.fileName}: ${errorText(error)}`)
        }
      }
      return { queued, refused }
    },
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: projectBillQueries.bill(projectId, bill.id).queryKey,
      }),
  })
  // Said until what was queued is billed (or failed): from then on the drawings' states say it.
  const queued = extract.data?.queued ?? []
  const settled = queued.every((itemId) =>
    bill.drawings.some((drawing) => drawing.itemId === itemId && !STILL_TO_BILL.has(drawing.state)),
  )
  if (waiting.length === 0 && !extract.data) return null
  return (
    <div className="flex flex-col gap-1 text-sm">
      {waiting.length > 0 ? (
        <button
          type="button"
          className="self-start rounded bg-sky-700 px-3 py-1 text-white disabled:opacity-50"
          disabled={extract.isPending}
          onClick={() => extract.mutate()}
        >
          Extract the drawings with no bill yet ({waiting.length})
        </button>
      ) : null}
      {extract.data ? (
        <div role="status">
          {queued.length === 0 || !settled ? (
            <p>
              {queued.length} extraction{queued.length === 1 ? '' : 's'} queued.
            </p>
          ) : null}
          {extract.data.refused.map((line) => (
            <p key={line} className="text-red-700">
              {line}
            </p>
          ))}
        </div>
      ) : null}
    </div>
  )
}
