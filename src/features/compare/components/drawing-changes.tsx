import { Suspense, useState } from 'react'
import { DrawingBoundary } from '../../../components/ui/drawing-boundary'
import type { ChangeBill } from '../api/compare-api'
import type { ChangeDrawingSlot } from './drawing-slot'

type Side = 'before' | 'after'

const NONE: string[] = []

/**
 * The counted and measured entities one drawing has and the other does not, in the drawings:
 * the newer one with those added in green, or the older one with those removed in red (one at a
 * time: the page holds one drawing viewer).
 */
export function DrawingChanges({
  changes,
  Drawing,
}: {
  changes: ChangeBill
  Drawing: ChangeDrawingSlot
}) {
  const [side, setSide] = useState<Side>('after')
  const { added, removed } = changes.entities
  const jobId = side === 'after' ? changes.to.jobId : changes.from.jobId
  const marked = side === 'after' ? { added, removed: NONE } : { added: NONE, removed }
  return (
    <aside aria-label="Drawing changes" className="flex w-full flex-col gap-2 lg:w-[40%]">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <p className="mr-auto font-medium">
          {added.length} added, {removed.length} removed
        </p>
        <fieldset className="flex gap-1" aria-label="Drawing shown">
          <SideButton side="before" shown={side} onShow={setSide}>
            Before
          </SideButton>
          <SideButton side="after" shown={side} onShow={setSide}>
            After
          </SideButton>
        </fieldset>
      </div>
      <p className="text-xs text-slate-500">
        {named(side === 'after' ? changes.to : changes.from)}
      </p>
      {jobId === null ? null : (
        <DrawingBoundary key={side}>
          <Suspense fallback={<p className="text-sm text-slate-500">Loading the drawing…</p>}>
            <Drawing jobId={jobId} marked={marked} />
          </Suspense>
        </DrawingBoundary>
      )}
    </aside>
  )
}

function named({ fileName, versionNumber }: ChangeBill['from']): string {
  return versionNumber === null ? fileName : `${fileName}, version ${versionNumber}`
}

function SideButton({
  side,
  shown,
  onShow,
  children,
}: {
  side: Side
  shown: Side
  onShow(side: Side): void
  children: string
}) {
  return (
    <button
      type="button"
      aria-pressed={side === shown}
      onClick={() => onShow(side)}
      className="rounded border border-slate-300 px-2 py-0.5 aria-pressed:bg-slate-800 aria-pressed:text-white"
    >
      {children}
    </button>
  )
}
