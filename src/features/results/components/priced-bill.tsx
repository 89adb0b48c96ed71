import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { groupsOf } from '#contract/bill-groups.ts'
import type { BillGroup } from '#contract/boq.ts'
import type { PricedBill } from '#contract/takeoff-rules.ts'
import { formatBilled, formatRate } from '../../../lib/format-amount'
import { errorText } from '../../../lib/http-errors'
import { type Job, type PricedWith, repriceJob, resultQueries } from '../api/results-api'
import { BillOfRecordNotice, staleWords } from './bill-of-record-notice'
import { NotClassifiedLines } from './not-classified-lines'

/**
 * The job's bill of record (the priced bill it keeps, which its downloads hold): items by
 * section with their amounts and the total, then what no rule took, each with a way to make a
 * rule for it. When the project's rules have changed since, it says so, with Re-price and a
 * preview with today's rules, shown as a preview.
 */
export function PricedBillView({ job }: { job: Job }) {
  const [previewing, setPreviewing] = useState(false)
  const queryClient = useQueryClient()
  const billQuery = resultQueries.bill(job.id, job.result?.jsonUrl ?? '')
  const kept = useQuery({ ...billQuery, enabled: Boolean(job.result?.jsonUrl) })
  const now = useQuery(resultQueries.projectTables(job.projectId))
  const reprice = useMutation({
    mutationFn: () => repriceJob(job.id),
    onSuccess: async () => {
      setPreviewing(false)
      // The job's record and its kept bill are the new ones.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resultQueries.job(job.id).queryKey }),
        queryClient.invalidateQueries({ queryKey: billQuery.queryKey }),
      ])
    },
  })
  if (kept.isPending) return <p className="py-2 text-sm text-slate-500">Loading the bill…</p>
  if (kept.isError) {
    return (
      <p role="alert" className="py-2 text-sm text-red-700">
        {errorText(kept.error)}
      </p>
    )
  }
  const recorded = job.pricedWith ?? null
  // The measured bill's groups (pasted blocks): its not-classified lines under one line.
  const groups = groupsOf(kept.data)
  const stale = now.data ? staleWords(recorded, now.data) : []
  return (
    <div className="flex flex-col gap-3 py-2 text-sm">
      {now.isError ? (
        <p className="text-amber-800">
          Could not tell whether the project’s rules have changed: {errorText(now.error)}
        </p>
      ) : null}
      <BillOfRecordNotice
        stale={stale}
        previewing={previewing}
        onPreview={() => setPreviewing(true)}
        reprice={{
          run: () => reprice.mutate(),
          pending: reprice.isPending,
          error: reprice.error,
          done: reprice.data,
        }}
      />
      {previewing ? (
        <PricedPreview job={job} groups={groups} onBack={() => setPreviewing(false)} />
      ) : (
        <BillOfRecord
          job={job}
          bill={kept.data.priced}
          groups={groups}
          recorded={recorded}
          noRules={now.data?.rulesVersion === 0}
        />
      )}
    </div>
  )
}

/** How the bill of record names what it was priced with. */
function recordWords(recorded: PricedWith | null): string {
  if (!recorded) return 'Bill of record, priced when extracted.'
  const rules = recorded.rulesVersion === 0 ? 'no rules' : `rules version ${recorded.rulesVersion}`
  const classification =
    recorded.classificationVersion === 0
      ? 'no classification'
      : `classification version ${recorded.classificationVersion}`
  return `Bill of record, priced with ${rules} and ${classification}. The downloads hold this bill.`
}

function BillOfRecord(props: {
  job: Job
  bill: PricedBill | undefined
  groups: readonly BillGroup[]
  recorded: PricedWith | null
  noRules: boolean
}) {
  const { job, bill, groups, recorded, noRules } = props
  if (!bill) {
    return noRules ? (
      <>
        <p>
          No takeoff rules for this project yet.{' '}
          <RulesLink job={job}>Write the project’s rules</RulesLink>
        </p>
        <LinesToClassify job={job} groups={groups} />
      </>
    ) : (
      <p>
        This bill of record is not priced. <RulesLink job={job}>The project’s rules</RulesLink>
      </p>
    )
  }
  return (
    <section aria-label="Bill of record" className="flex flex-col gap-3">
      <p className="text-slate-600">{recordWords(recorded)}</p>
      <PricedContent job={job} bill={bill} groups={groups} label="Priced bill" />
    </section>
  )
}

/** The job priced with the project's saved rules now: a preview, kept nowhere. */
function PricedPreview(props: { job: Job; groups: readonly BillGroup[]; onBack: () => void }) {
  const { job, groups, onBack } = props
  const priced = useQuery(resultQueries.priced(job.id))
  return (
    <section
      aria-label="Preview with today’s rules"
      className="flex flex-col gap-3 rounded border-2 border-dashed border-sky-400 p-3"
    >
      <p className="flex flex-wrap items-center gap-3">
        <strong className="font-semibold text-sky-900">
          Preview with today’s rules
          {priced.data?.rulesVersion ? ` (rules version ${priced.data.rulesVersion})` : ''}: not the
          bill of record.
        </strong>
        <span className="text-slate-600">The downloads hold the bill of record.</span>
        <button
          type="button"
          className="rounded border border-slate-400 px-3 py-1 hover:bg-white"
          onClick={onBack}
        >
          Back to the bill of record
        </button>
      </p>
      {priced.isPending ? (
        <p className="text-slate-500">Pricing the bill…</p>
      ) : priced.isError ? (
        <p role="alert" className="text-red-700">
          {errorText(priced.error)}
        </p>
      ) : (
        <PricedContent
          job={job}
          bill={priced.data.priced}
          groups={groups}
          label="Preview of the priced bill"
        />
      )}
    </section>
  )
}

/**
 * The bill's lines no rule takes, each with a way to make a rule for it: for a project without
 * rules, from a pricing with none (nothing is priced, so nothing differs from the bill of record).
 */
function LinesToClassify({ job, groups }: { job: Job; groups: readonly BillGroup[] }) {
  const priced = useQuery(resultQueries.priced(job.id))
  if (priced.isError) {
    return (
      <p role="alert" className="text-red-700">
        {errorText(priced.error)}
      </p>
    )
  }
  const lines = priced.data?.priced.notClassified ?? []
  return lines.length > 0 ? <NotClassifiedLines job={job} lines={lines} groups={groups} /> : null
}

/** A priced bill's items, what no rule took and its warnings. */
function PricedContent(props: {
  job: Job
  bill: PricedBill
  groups: readonly BillGroup[]
  label: string
}) {
  const { job, bill, groups, label } = props
  const noItems = bill.items.length === 0 && bill.ignored.length === 0
  return (
    <>
      {noItems ? null : <PricedItems bill={bill} label={label} />}
      <p>
        <RulesLink job={job}>Edit the project’s rules</RulesLink>
      </p>
      {bill.notClassified.length > 0 ? (
        <NotClassifiedLines job={job} lines={bill.notClassified} groups={groups} />
      ) : null}
      {bill.warnings.map((warning) => (
        <p key={warning} className="text-amber-800">
          {warning}
        </p>
      ))}
    </>
  )
}

function RulesLink({ job, children }: { job: Job; children: string }) {
  return (
    <Link
      to="/projects/$projectId/rules"
      params={{ projectId: job.projectId }}
      search={{ job: job.id }}
      className="text-sky-700 underline"
    >
      {children}
    </Link>
  )
}

const numeric = 'px-2 py-1 text-right tabular-nums'

function PricedItems({ bill, label }: { bill: PricedBill; label: string }) {
  const byRef = new Map(bill.items.map((item) => [item.ref, item]))
  // Amounts to the currency's decimals; the currency named in the headers.
  const decimals = bill.currency?.decimals ?? 2
  const money = (value: number) => formatBilled(value, decimals)
  const inCurrency = (header: string) =>
    bill.currency ? `${header} (${bill.currency.code})` : header
  return (
    <table aria-label={label} className="border-collapse text-left">
      <thead>
        <tr className="text-xs text-slate-500">
          <th className="px-2">Item</th>
          <th className="px-2">Code</th>
          <th className="px-2">Description</th>
          <th className="px-2 text-right">Quantity</th>
          <th className="px-2">Unit</th>
          <th className="px-2 text-right">{inCurrency('Rate')}</th>
          <th className="px-2 text-right">{inCurrency('Amount')}</th>
        </tr>
      </thead>
      {bill.sections.map((section) => (
        <tbody key={section.code} aria-label={`Section ${section.code} ${section.title}`}>
          <tr className="border-t border-slate-300 bg-slate-50">
            <th colSpan={7} scope="rowgroup" className="px-2 py-1 font-semibold">
              {section.code} {section.title}
            </th>
          </tr>
          {section.items.map((ref) => {
            const item = byRef.get(ref)
            if (!item) return null
            return (
              <tr key={ref} className="border-t border-slate-200">
                <td className="px-2 py-1">{item.ref}</td>
                <td className="px-2 py-1">{item.code}</td>
                <td className="px-2 py-1">
                  {item.description}
                  {item.flags.map((flag) => (
                    <span key={flag} className="block text-xs text-amber-800">
                      {flag}
                    </span>
                  ))}
                </td>
                <td className={numeric}>{formatBilled(item.quantity, item.decimals)}</td>
                <td className="px-2 py-1">{item.unit}</td>
                <td className={numeric}>
                  {item.rate === null ? '—' : formatRate(item.rate, decimals)}
                </td>
                <td className={numeric}>{item.amount === null ? '—' : money(item.amount)}</td>
              </tr>
            )
          })}
          <tr>
            <td colSpan={6} className="px-2 py-1 text-right text-slate-600">
              Subtotal {section.code}
            </td>
            <td className={numeric}>{money(section.subtotal)}</td>
          </tr>
        </tbody>
      ))}
      <tfoot>
        {bill.adjustments.length === 0 ? null : (
          <tr className="border-t-2 border-slate-400">
            <th colSpan={6} scope="row" className="px-2 py-1 text-right">
              Items total
            </th>
            <td className={numeric}>{money(bill.itemsTotal)}</td>
          </tr>
        )}
        {bill.adjustments.map((adjustment, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: adjustments may share a name; their order is the settings'
          <tr key={i}>
            <th colSpan={6} scope="row" className="px-2 py-1 text-right font-normal">
              {adjustment.name} <span className="text-slate-500">({adjustment.basis})</span>
            </th>
            <td className={numeric}>{money(adjustment.amount)}</td>
          </tr>
        ))}
        <tr className="border-t-2 border-slate-400 font-semibold">
          <th colSpan={6} scope="row" className="px-2 py-1 text-right">
            Total
          </th>
          <td className={numeric}>
            {bill.currency ? `${bill.currency.symbol}${money(bill.total)}` : money(bill.total)}
          </td>
        </tr>
      </tfoot>
    </table>
  )
}
