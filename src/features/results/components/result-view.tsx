import { Suspense, useCallback, useMemo, useReducer, useRef, useState } from 'react'
import { groupByLine, groupsOf } from '#contract/bill-groups.ts'
import type { BillGroup, BillLine, Boq } from '#contract/boq.ts'
import type { Job } from '#contract/jobs.ts'
import { NO_QUANTITIES, noQuantitiesWarning } from '#contract/no-quantities.ts'
import { DrawingBoundary } from '../../../components/ui/drawing-boundary'
import { formatDateTime } from '../../../lib/format-date'
import { drawingRead } from '../../../lib/job-words'
import { describeBillUnits } from '../utils/describe-units'
import { initialResultState, resultReducer } from '../utils/result-state'
import {
  BILL_COLUMNS,
  billKindRank,
  billLineText,
  RESULT_TABS,
  type ResultTab,
} from '../utils/result-tables'
import { type HandleIndex, handlesOf, indexHandles } from '../utils/selection'
import { BillTable, groupKey } from './bill-table'
import type { DrawingName, DrawingSlot } from './drawing-slot'
import { EmptyTable } from './empty-table'
import type { LocationsSlot } from './locations-slot'
import { OtherTable } from './other-table'
import { PricedBillView } from './priced-bill'
import { ResultDownloads } from './result-downloads'
import { ResultNotices } from './result-notices'
import { ResultTabs } from './result-tabs'
import { useShownRows } from './use-shown-rows'

const NO_LINES: BillLine[] = []
const NO_GROUPS: BillGroup[] = []

/**
 * A succeeded job's bill: what was read and when, warnings and what was not measured, downloads,
 * the tables (sorted, filtered, the bill's lines opening onto their breakdown) and the drawing
 * beside them, kept in step: a selected line highlights its entities, a picked entity selects
 * its line. Without `boq` (the bill is on its way) the drawing is shown already, in the place it
 * keeps once the bill comes: it needs only the job, and opens while the bill is read.
 */
export function ResultView({
  job,
  boq,
  Drawing,
  Locations,
}: {
  job: Job
  boq: Boq | undefined
  Drawing: DrawingSlot
  /** The Locations tab, when the app hands one in. */
  Locations?: LocationsSlot
}) {
  const [state, dispatch] = useReducer(resultReducer, initialResultState)
  // What the Locations tab lights for the zone picked there, in place of the bill's selection,
  // and the zones' names it draws.
  const [zoneLit, setZoneLit] = useState<string[] | null>(null)
  const [zoneNames, setZoneNames] = useState<readonly DrawingName[] | undefined>(undefined)
  const onZoneLight = useCallback((handles: string[] | null, names?: readonly DrawingName[]) => {
    setZoneLit(handles)
    setZoneNames(names)
  }, [])
  const tabs = useMemo(
    () => (Locations ? RESULT_TABS : RESULT_TABS.filter((tab) => tab.id !== 'locations')),
    [Locations],
  )
  const lines = boq?.bill ?? NO_LINES
  const groups = useMemo(() => (boq ? groupsOf(boq) : NO_GROUPS), [boq])
  // A line picked in the drawing under a closed group opens it.
  const groupOf = useMemo(() => {
    const byLine = groupByLine(groups)
    return (ref: string) => {
      const group = byLine.get(ref)
      return group ? groupKey(group) : undefined
    }
  }, [groups])
  const bill = useShownRows({
    rows: lines,
    columns: BILL_COLUMNS,
    textOf: billLineText,
    filter: state.filter,
    sort: state.sorts.bill ?? null,
    group: billKindRank,
  })
  const why = boq && lines.length === 0 ? emptyBillWord(boq) : null
  const lit = state.tab === 'locations' ? zoneLit : null
  const names = state.tab === 'locations' ? zoneNames : undefined
  const selected = useMemo(() => handlesOf(lines, state.selection), [lines, state.selection])
  const highlighted = lit ?? selected
  // A count line's handles are the block references it counts: the drawing rings them.
  const selectedRef = state.selection?.ref
  const ringed = useMemo(
    () => lines.find((line) => line.ref === selectedRef)?.kind === 'count',
    [lines, selectedRef],
  )
  // The pick reads the lines shown when it happens, without a new onPick on every change.
  const shown = useMemo(() => new Set(bill.shown.map((line) => line.ref)), [bill.shown])
  const shownRefs = useRef(shown)
  shownRefs.current = shown
  // The bill's handles are indexed on the first pick, not before the bill is first shown (a
  // tenth of a second for 200,000 entities).
  const indexed = useRef<{ lines: readonly BillLine[]; index: HandleIndex } | null>(null)
  const onPick = useCallback(
    (handle: string) => {
      if (indexed.current?.lines !== lines) {
        indexed.current = { lines, index: indexHandles(lines) }
      }
      dispatch({
        type: 'pick',
        handle,
        index: indexed.current.index,
        shown: shownRefs.current,
        groupOf,
      })
    },
    [lines, groupOf],
  )
  const onSort = (column: string) => dispatch({ type: 'sort', tab: state.tab, column })

  // The drawing keeps its place in the tree as the bill comes: it is not made again.
  return (
    <div className="flex flex-col gap-4">
      {boq ? (
        <ResultHeader job={job} boq={boq} />
      ) : (
        <p className="text-sm text-slate-500">Loading the bill…</p>
      )}
      {boq ? (
        <ResultNotices
          // An empty bill's reason is said in the bill's place.
          warnings={why ? boq.warnings.filter((warning) => warning !== why) : boq.warnings}
          notMeasured={boq.notMeasured}
        />
      ) : null}
      <div className="flex flex-col gap-4 lg:flex-row">
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          {boq ? (
            <>
              <label className="flex items-center gap-2 text-sm">
                Filter
                <input
                  type="search"
                  value={state.filter}
                  onChange={(event) => dispatch({ type: 'filter', filter: event.target.value })}
                  className="w-64 rounded border border-slate-300 px-2 py-1"
                />
              </label>
              <ResultTabs
                tabs={tabs}
                tab={state.tab}
                counts={tabCounts(boq)}
                onTab={(tab) => dispatch({ type: 'tab', tab })}
              >
                {state.tab === 'bill' ? (
                  why ? (
                    <p className="py-2 text-sm text-slate-700">{why}</p>
                  ) : bill.matched === 0 ? (
                    <EmptyTable total={boq.bill.length} filter={state.filter} />
                  ) : (
                    <BillTable
                      lines={bill.shown}
                      groups={groups}
                      sort={state.sorts.bill ?? null}
                      onSort={onSort}
                      expanded={state.expanded}
                      onToggle={(ref) => dispatch({ type: 'toggle', ref })}
                      selection={state.selection}
                      onSelect={(selection) => dispatch({ type: 'select', selection })}
                      reveal={state.reveal}
                    />
                  )
                ) : state.tab === 'priced' ? (
                  <PricedBillView job={job} />
                ) : state.tab === 'locations' ? (
                  Locations ? (
                    <Locations job={job} boq={boq} onLight={onZoneLight} />
                  ) : null
                ) : (
                  <OtherTable
                    tab={state.tab}
                    boq={boq}
                    filter={state.filter}
                    sort={state.sorts[state.tab] ?? null}
                    onSort={onSort}
                  />
                )}
              </ResultTabs>
              <p role="status" className="min-h-5 text-sm text-slate-600">
                {state.note}
              </p>
            </>
          ) : null}
        </div>
        <aside aria-label="Drawing" className="flex w-full flex-col lg:w-[40%]">
          <DrawingBoundary>
            <Suspense fallback={<p className="text-sm text-slate-500">Loading the drawing…</p>}>
              {job.result ? (
                <Drawing
                  jobId={job.id}
                  geometryUrl={job.result.geometryUrl}
                  highlighted={highlighted}
                  ringed={lit ? false : ringed}
                  notMeasured={boq?.notMeasured}
                  labels={names}
                  onPick={onPick}
                />
              ) : null}
            </Suspense>
          </DrawingBoundary>
        </aside>
      </div>
    </div>
  )
}

/** How many rows each tab holds. */
function tabCounts(boq: Boq): Partial<Record<ResultTab, number>> {
  return {
    bill: boq.bill.length,
    blocks: boq.blocks.length,
    lengths: boq.lengths.length,
    areas: boq.areas.length,
    ...(boq.zones ? { locations: boq.zones.length } : {}),
    'not-measured': boq.notMeasured.length,
  }
}

/** Why the bill has no line: the engine's word, or (a bill kept from before it gave one) a plain one. */
function emptyBillWord(boq: Boq): string {
  return (
    noQuantitiesWarning(boq.warnings) ??
    `${NO_QUANTITIES}: nothing in the drawing’s model space was counted or measured.`
  )
}

function ResultHeader({ job, boq }: { job: Job; boq: Boq }) {
  return (
    <header className="flex flex-col gap-1">
      <h1 className="text-lg font-semibold text-slate-800">Bill of {drawingRead(job)}</h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
        <dt className="text-slate-500">Extracted</dt>
        <dd>{formatDateTime(job.createdAt)}</dd>
        <dt className="text-slate-500">Units</dt>
        <dd>{describeBillUnits(boq.units)}</dd>
        <dt className="text-slate-500">Drawing</dt>
        <dd>
          {boq.source.fileName}, {boq.source.release} ({boq.source.version})
        </dd>
      </dl>
      {job.result ? <ResultDownloads result={job.result} /> : null}
    </header>
  )
}
