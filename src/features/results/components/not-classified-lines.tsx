import { Link } from '@tanstack/react-router'
import { type ChangeEvent, useEffect, useMemo, useRef, useState } from 'react'
import {
  type Grouped,
  groupByLine,
  groupDescription,
  PASTED_BLOCKS_GLOB,
  withGroups,
} from '#contract/bill-groups.ts'
import type { BillGroup } from '#contract/boq.ts'
import type { NotClassified } from '#contract/takeoff-rules.ts'
import { formatItemQuantity } from '../../../lib/format-amount'
import type { Job } from '../api/results-api'
import { lineKey, type RuleDraft, ruleForLine, rulesForLines } from '../utils/rules-for-lines'

/** The most rules one link asks the rules page to start with (its address carries them). */
const MOST_RULES_AT_ONCE = 200

const numeric = 'px-2 py-1 text-right tabular-nums'

/**
 * What no rule took, each line with a way to make a rule for it, and a selection of lines (a
 * click, a shift-click for the lines between) to make rules for at once (`rulesForLines`: one
 * per layer's linework or areas, one per block). Pasted blocks are under one line that opens
 * onto them and selects them all; a rule for it takes every pasted block.
 */
export function NotClassifiedLines({
  job,
  lines,
  groups,
}: {
  job: Job
  lines: NotClassified[]
  groups: readonly BillGroup[]
}) {
  const entries = useMemo(() => withGroups(lines, groups, (line) => line.line), [lines, groups])
  // Lines in the order shown, for a shift-click's range.
  const order = useMemo(() => entries.flatMap((entry) => entryLines(entry)), [entries])
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set())
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set())
  const anchor = useRef<number | null>(null)
  // A new pricing may have taken some lines: the selection keeps only those still listed.
  useEffect(() => {
    const keys = new Set(order.map(lineKey))
    setSelected((now) => {
      const kept = [...now].filter((key) => keys.has(key))
      return kept.length === now.size ? now : new Set(kept)
    })
  }, [order])

  const choose = (these: NotClassified[], on: boolean) =>
    setSelected((now) => {
      const next = new Set(now)
      for (const line of these) {
        if (on) next.add(lineKey(line))
        else next.delete(lineKey(line))
      }
      return next
    })
  const onLine = (line: NotClassified, event: ChangeEvent<HTMLInputElement>) => {
    const at = order.indexOf(line)
    const shift = (event.nativeEvent as MouseEvent).shiftKey === true
    const from = anchor.current
    choose(
      shift && from !== null ? order.slice(Math.min(from, at), Math.max(from, at) + 1) : [line],
      event.target.checked,
    )
    anchor.current = at
  }

  const chosen = order.filter((line) => selected.has(lineKey(line)))
  const byLine = groupByLine(groups)
  const groupOf = (line: NotClassified) => byLine.get(line.line)
  const whole = entries.flatMap((entry) =>
    'group' in entry && entry.rows.every((line) => selected.has(lineKey(line)))
      ? [entry.group]
      : [],
  )
  const drafts = rulesForLines(chosen, whole, groupOf)

  return (
    <section aria-label="Not classified" className="flex flex-col gap-1">
      <h2 className="font-semibold text-slate-800">Not classified ({lines.length})</h2>
      <SelectionBar
        job={job}
        chosen={chosen.length}
        drafts={drafts}
        onClear={() => setSelected(new Set())}
      />
      <table className="border-collapse text-left">
        <tbody>
          {entries.map((entry) =>
            'row' in entry ? (
              <LineRow
                key={lineKey(entry.row)}
                job={job}
                line={entry.row}
                selected={selected.has(lineKey(entry.row))}
                onSelect={onLine}
              />
            ) : (
              <GroupRows
                key={entry.group.name}
                job={job}
                group={entry.group}
                lines={entry.rows}
                open={open.has(entry.group.name)}
                onToggle={() =>
                  setOpen((now) => {
                    const next = new Set(now)
                    if (!next.delete(entry.group.name)) next.add(entry.group.name)
                    return next
                  })
                }
                selected={selected}
                onSelectAll={(on) => choose(entry.rows, on)}
                onSelect={onLine}
              />
            ),
          )}
        </tbody>
      </table>
    </section>
  )
}

function entryLines(entry: Grouped<NotClassified>): NotClassified[] {
  return 'row' in entry ? [entry.row] : entry.rows
}

/** How many lines are selected, and the rules they would start, as one link to the rules page. */
function SelectionBar(props: { job: Job; chosen: number; drafts: RuleDraft[]; onClear(): void }) {
  const { job, chosen, drafts, onClear } = props
  if (chosen === 0) {
    return (
      <p className="text-xs text-slate-500">
        Select lines (shift-click for the lines between) to make rules for them at once.
      </p>
    )
  }
  const rules = drafts.length === 1 ? 'a rule' : `${drafts.length} rules`
  return (
    <p role="status" className="flex flex-wrap items-center gap-3">
      <span>
        {chosen} {chosen === 1 ? 'line' : 'lines'} selected: {rules} (one per layer’s linework or
        areas, one per block).
      </span>
      {drafts.length > MOST_RULES_AT_ONCE ? (
        <span className="text-amber-800">
          At most {MOST_RULES_AT_ONCE} rules at once: select fewer lines.
        </span>
      ) : (
        <Link
          to="/projects/$projectId/rules"
          params={{ projectId: job.projectId }}
          search={{ job: job.id, rules: drafts }}
          className="text-sky-700 underline"
        >
          {drafts.length === 1 ? 'Make a rule for them…' : `Make ${drafts.length} rules…`}
        </Link>
      )}
      <button
        type="button"
        onClick={onClear}
        className="rounded border border-slate-300 px-2 hover:bg-slate-50"
      >
        Clear the selection
      </button>
    </p>
  )
}

function RuleLink({ job, rule, name }: { job: Job; rule: RuleDraft; name: string }) {
  return (
    <Link
      to="/projects/$projectId/rules"
      params={{ projectId: job.projectId }}
      search={{ job: job.id, ...rule }}
      aria-label={`Make a rule for ${name}`}
      className="text-sky-700 underline"
    >
      Make a rule…
    </Link>
  )
}

function LineRow({
  job,
  line,
  selected,
  onSelect,
  inGroup = false,
}: {
  job: Job
  line: NotClassified
  selected: boolean
  onSelect(line: NotClassified, event: ChangeEvent<HTMLInputElement>): void
  inGroup?: boolean
}) {
  const name = `${line.line} ${line.description}`
  return (
    <tr className={`border-t border-slate-200 ${selected ? 'bg-sky-50' : ''}`}>
      <td className="px-2 py-1">
        <input
          type="checkbox"
          aria-label={`Select ${name}`}
          checked={selected}
          onChange={(event) => onSelect(line, event)}
        />
      </td>
      <td className={`px-2 py-1 ${inGroup ? 'pl-6' : ''}`}>{line.line}</td>
      <td className={`px-2 py-1 ${inGroup ? 'pl-6' : ''}`}>{line.description}</td>
      <td className={numeric}>{formatItemQuantity(line.quantity)}</td>
      <td className="px-2 py-1">{line.unit}</td>
      <td className="px-2 py-1">
        <RuleLink job={job} rule={ruleForLine(line)} name={name} />
      </td>
    </tr>
  )
}

/**
 * A group's line (`Pasted blocks (27 kinds, 29 placed)`, of the lines listed), opening onto its
 * lines; its box selects them all (mixed when some are). It has no quantity of its own.
 */
function GroupRows(props: {
  job: Job
  group: BillGroup
  lines: NotClassified[]
  open: boolean
  onToggle(): void
  selected: ReadonlySet<string>
  onSelectAll(on: boolean): void
  onSelect(line: NotClassified, event: ChangeEvent<HTMLInputElement>): void
}) {
  const { job, group, lines, open, onToggle, selected, onSelectAll, onSelect } = props
  const picked = lines.filter((line) => selected.has(lineKey(line))).length
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = picked > 0 && picked < lines.length
  }, [picked, lines.length])
  const kinds = new Set(lines.map((line) => line.block)).size
  const placed = lines.reduce((sum, line) => sum + line.quantity, 0)
  const description = groupDescription(group.name, kinds, placed)
  const rule: RuleDraft = { match: group.kind, block: PASTED_BLOCKS_GLOB, description: group.name }
  return (
    <>
      <tr className="border-t border-slate-200 bg-slate-50">
        <td className="px-2 py-1">
          <input
            ref={box}
            type="checkbox"
            aria-label={`Select ${group.name}`}
            checked={picked === lines.length}
            onChange={(event) => onSelectAll(event.target.checked)}
          />
        </td>
        <td className="px-2 py-1">
          <button
            type="button"
            aria-label={`${group.name}: ${lines.length} lines`}
            aria-expanded={open}
            onClick={onToggle}
            className="inline-flex items-center gap-1 hover:text-sky-700"
          >
            <span aria-hidden="true" className="w-3 text-xs">
              {open ? '▾' : '▸'}
            </span>
            {lines[0]?.line}…
          </button>
        </td>
        <td className="px-2 py-1 font-medium">{description}</td>
        <td className={numeric} />
        <td className="px-2 py-1" />
        <td className="px-2 py-1">
          <RuleLink job={job} rule={rule} name={group.name} />
        </td>
      </tr>
      {open
        ? lines.map((line) => (
            <LineRow
              key={lineKey(line)}
              job={job}
              line={line}
              selected={selected.has(lineKey(line))}
              onSelect={onSelect}
              inGroup
            />
          ))
        : null}
    </>
  )
}
