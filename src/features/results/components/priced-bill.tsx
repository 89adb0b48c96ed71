import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { NotClassified, PricedBill } from '../../../../contract/takeoff-rules'
import {
  formatAmount,
  formatBilled,
  formatItemQuantity,
  formatRate,
} from '../../../lib/format-amount'
import { errorText } from '../../../lib/http-errors'
import { type Job, resultQueries } from '../api/results-api'

/**
 * The job's bill priced with its project's saved takeoff rules: items by section with their
 * amounts and the total, then what no rule took, each with a way to make a rule for it.
 */
export function PricedBillView({ job }: { job: Job }) {
  const priced = useQuery(resultQueries.priced(job.id))
  if (priced.isPending) return <p className="py-2 text-sm text-slate-500">Pricing the bill…</p>
  if (priced.isError) {
    return (
      <p role="alert" className="py-2 text-sm text-red-700">
        {errorText(priced.error)}
      </p>
    )
  }
  const bill = priced.data.priced
  const noRules = bill.items.length === 0 && bill.ignored.length === 0
  return (
    <div className="flex flex-col gap-3 py-2 text-sm">
      {noRules ? (
        <p>
          No takeoff rules for this project yet.{' '}
          <RulesLink job={job}>Write the project’s rules</RulesLink>
        </p>
      ) : (
        <>
          <PricedItems bill={bill} />
          <p className="flex gap-4">
            <RulesLink job={job}>Edit the project’s rules</RulesLink>
            {priced.data.rulesVersion === null ? null : (
              <span className="text-slate-500">Rules version {priced.data.rulesVersion}</span>
            )}
          </p>
        </>
      )}
      {bill.notClassified.length > 0 ? (
        <NotClassifiedLines job={job} lines={bill.notClassified} />
      ) : null}
      {bill.warnings.map((warning) => (
        <p key={warning} className="text-amber-800">
          {warning}
        </p>
      ))}
    </div>
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

function PricedItems({ bill }: { bill: PricedBill }) {
  const byRef = new Map(bill.items.map((item) => [item.ref, item]))
  return (
    <table aria-label="Priced bill" className="border-collapse text-left">
      <thead>
        <tr className="text-xs text-slate-500">
          <th className="px-2">Item</th>
          <th className="px-2">Code</th>
          <th className="px-2">Description</th>
          <th className="px-2 text-right">Quantity</th>
          <th className="px-2">Unit</th>
          <th className="px-2 text-right">Rate</th>
          <th className="px-2 text-right">Amount</th>
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
                <td className={numeric}>{item.rate === null ? '—' : formatRate(item.rate)}</td>
                <td className={numeric}>
                  {item.amount === null ? '—' : formatAmount(item.amount)}
                </td>
              </tr>
            )
          })}
          <tr>
            <td colSpan={6} className="px-2 py-1 text-right text-slate-600">
              Subtotal {section.code}
            </td>
            <td className={numeric}>{formatAmount(section.subtotal)}</td>
          </tr>
        </tbody>
      ))}
      <tfoot>
        <tr className="border-t-2 border-slate-400 font-semibold">
          <th colSpan={6} scope="row" className="px-2 py-1 text-right">
            Total
          </th>
          <td className={numeric}>{formatAmount(bill.total)}</td>
        </tr>
      </tfoot>
    </table>
  )
}

/** What a rule for a not-classified line would start from, as the rules page's address. */
function ruleSearch(job: Job, line: NotClassified) {
  return {
    job: job.id,
    match: line.match,
    // A count is told by its block; linework and areas by their layer and kinds.
    ...(line.block ? { block: line.block } : { layer: line.layer }),
    ...(line.kind ? { kind: line.kind } : {}),
    description: line.description,
  }
}

function NotClassifiedLines({ job, lines }: { job: Job; lines: NotClassified[] }) {
  return (
    <section aria-label="Not classified" className="flex flex-col gap-1">
      <h2 className="font-semibold text-slate-800">Not classified ({lines.length})</h2>
      <table className="border-collapse text-left">
        <tbody>
          {lines.map((line) => (
            <tr
              key={`${line.line}:${line.block ?? ''}:${line.layer}:${line.kind ?? ''}`}
              className="border-t border-slate-200"
            >
              <td className="px-2 py-1">{line.line}</td>
              <td className="px-2 py-1">{line.description}</td>
              <td className={numeric}>{formatItemQuantity(line.quantity)}</td>
              <td className="px-2 py-1">{line.unit}</td>
              <td className="px-2 py-1">
                <Link
                  to="/projects/$projectId/rules"
                  params={{ projectId: job.projectId }}
                  search={ruleSearch(job, line)}
                  aria-label={`Make a rule for ${line.line} ${line.description}`}
                  className="text-sky-700 underline"
                >
                  Make a rule…
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
