import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react'
import type { DrawnGeometry } from '#contract/drawing-geometry.ts'
import { errorText } from '../../../lib/http-errors'
import { drawingQueries } from '../api/drawing-queries'
import { drawsNothing, type LeftOut, nothingDrawnText } from '../utils/nothing-drawn'
import type { DrawingLabel, DrawingMarks, DrawingViewer } from '../viewer/drawing-viewer'
import { loadGeometryViewer } from '../viewer/load-viewer'
import { markDrawing } from '../viewer/timing'

export type { DrawingLabel, DrawingMarks }

export type DrawingViewProps = {
  jobId: string
  /** Where the job's geometry is: its Job's `result.geometryUrl`. */
  geometryUrl: string
  /** Handles of the entities to highlight (as the bill names them). */
  highlighted?: string[]
  /**
   * The highlighted entities are block references a bill line counts: each gets a ring seen at
   * any zoom (a reference is a speck when the whole drawing is fitted).
   */
  ringed?: boolean
  /** What the job's bill left out, by kind: said in place of a drawing with nothing to draw. */
  notMeasured?: readonly LeftOut[]
  /**
   * Names drawn at entities (the zones' names at their outlines), moving with the view, the
   * `emphasised` one stood out; those too small on screen to hold their name are left unnamed.
   */
  labels?: readonly DrawingLabel[]
  /**
   * Entities to colour as a change instead: added in green, removed in red (the rest dimmed,
   * the view left fitted to the whole drawing). Given, `highlighted` is not used.
   */
  marked?: DrawingMarks
  /** Called with the model-space handle of a shape the person clicks. */
  onPick?(handle: string): void
}

const NONE: string[] = []
const NO_LABELS: readonly DrawingLabel[] = []

/** A press that moves less than this (px) is a click; more is a pan. */
const CLICK_SLOP_PX = 4
const ZOOM_STEP = 1.25
/** Frames what is lit: the key CAD and 3D tools give "frame selected". */
const ZOOM_TO_SELECTION_KEY = 'f'
/** Progress is told in these steps (%): a live status read out at every percent would chatter. */
const PROGRESS_STEP = 10

/** A viewer once it has drawn: everything but reading. */
type ShownViewer = Omit<DrawingViewer, 'open'>

/**
 * The job's drawing: model space drawn in the browser from the geometry the server built with its
 * bill (`geometryUrl`), on its layers' colours (text left out: `labels` are named over it). Drag
 * pans, the wheel and a pinch zoom, + / - / 0 zoom and fit from the keyboard, F (and Zoom to selection) frames what is lit. The `highlighted` entities stand
 * out (the rest dimmed, `ringed` ones ringed) and are framed; a click on a shape calls `onPick`
 * with its handle (a block reference's, for anything drawn inside one). Or the `marked` entities
 * are coloured as a change between two versions. Geometry with nothing to draw is not drawn: the
 * view says what its model space holds instead.
 */
export function DrawingView({
  jobId,
  geometryUrl,
  highlighted = NONE,
  ringed = false,
  notMeasured,
  labels = NO_LABELS,
  marked,
  onPick,
}: DrawingViewProps) {
  const queryClient = useQueryClient()
  const geometry = useQuery(drawingQueries.geometry(geometryUrl))
  const mount = useRef<HTMLDivElement>(null)
  const [viewer, setViewer] = useState<ShownViewer | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  // The handles lit in the drawing (highlighted or marked and found in it), once it is drawn.
  const [lit, setLit] = useState<string[] | null>(null)
  // How far the viewer has got reading and drawing the drawing, in steps of PROGRESS_STEP.
  const [progress, setProgress] = useState(0)
  const press = useRef<{ id: number; x: number; y: number } | null>(null)

  const drawn = geometry.data
  const blank = drawn ? drawsNothing(drawn) : false
  useEffect(() => {
    const container = mount.current
    if (!container) return
    let gone = false
    let made: ShownViewer | undefined
    const onProgress = (percent: number) => {
      if (!gone) setProgress(Math.floor(percent / PROGRESS_STEP) * PROGRESS_STEP)
    }
    // The renderer's code is in hand when the geometry comes: a fresh import() resolves in a
    // task of its own, which another answer's parsing may come before.
    const renderer = loadGeometryViewer()
    renderer.catch(() => {})
    /** Makes the renderer in the container, and opens the geometry with it. */
    async function show(source: DrawnGeometry) {
      markDrawing('file')
      const create = await renderer
      if (gone || !container) return
      const viewer = await create(container)
      made = viewer
      markDrawing('viewer')
      if (gone) return
      await viewer.open(source, onProgress)
      if (!gone) setViewer(viewer)
    }
    setFailure(null)
    setProgress(0)
    // Opened in the very task the geometry is read in (the request the page started, joined),
    // not after a render: an answer that came meanwhile, the bill's, is read after the drawing.
    queryClient.ensureQueryData(drawingQueries.geometry(geometryUrl)).then(
      (source) => {
        // An empty paper is not worth a renderer: the view says why it is empty instead.
        if (gone || drawsNothing(source)) return
        show(source).catch((error: unknown) => {
          if (!gone) setFailure(`The drawing could not be shown: ${errorText(error)}`)
        })
      },
      // The query says why (geometry.error).
      () => {},
    )
    return () => {
      gone = true
      setViewer(null)
      made?.destroy().catch(() => {})
    }
  }, [queryClient, geometryUrl])

  // The same handles in a new array are the same highlight.
  const highlightKey = highlighted.join('\n')
  // Likewise the same marks (handles as text: a handle never holds a quote or a backslash).
  const markKey = marked ? JSON.stringify([marked.added, marked.removed]) : null
  useEffect(() => {
    if (!viewer) return
    if (markKey !== null) {
      const [added, removed] = JSON.parse(markKey) as [string[], string[]]
      const shown = viewer.mark({ added, removed })
      setLit([...shown.added, ...shown.removed])
      return
    }
    const handles = highlightKey === '' ? [] : highlightKey.split('\n')
    const shown = viewer.highlight(handles, { ringed })
    if (shown.length > 0) viewer.zoomToHandles(shown)
    setLit(shown)
  }, [viewer, highlightKey, markKey, ringed])

  // A new list is new names: the page keeps its list while the names stay the same.
  useEffect(() => {
    viewer?.label(labels)
  }, [viewer, labels])

  const canZoomToSelection = viewer !== null && lit !== null && lit.length > 0
  function zoomToSelection() {
    if (canZoomToSelection) viewer.zoomToHandles(lit)
  }

  function onKeyDown(event: KeyboardEvent) {
    if (!viewer || event.altKey || event.ctrlKey || event.metaKey) return
    const act: Record<string, () => void> = {
      '+': () => viewer.zoom(ZOOM_STEP),
      '=': () => viewer.zoom(ZOOM_STEP),
      '-': () => viewer.zoom(1 / ZOOM_STEP),
      _: () => viewer.zoom(1 / ZOOM_STEP),
      '0': () => viewer.fit(),
      [ZOOM_TO_SELECTION_KEY]: zoomToSelection,
    }
    const action = act[event.key.length === 1 ? event.key.toLowerCase() : event.key]
    if (!action) return
    event.preventDefault()
    action()
  }

  function onPointerDown(event: PointerEvent) {
    press.current = event.isPrimary
      ? { id: event.pointerId, x: event.clientX, y: event.clientY }
      : null
  }

  function onPointerUp(event: PointerEvent) {
    const start = press.current
    press.current = null
    if (!viewer || !start || start.id !== event.pointerId || event.button !== 0) return
    const moved = Math.hypot(event.clientX - start.x, event.clientY - start.y)
    if (moved > CLICK_SLOP_PX) return
    const handle = viewer.handleAt(event.clientX, event.clientY)
    if (handle) onPick?.(handle)
  }

  const failed = geometry.isError
    ? `The drawing could not be loaded: ${errorText(geometry.error)}`
    : failure
  const status =
    failed ??
    (blank
      ? nothingDrawnText(notMeasured)
      : viewer
        ? null
        : `Loading the drawing…${progress > 0 ? ` ${progress}%` : ''}`)
  const given = marked ? marked.added.length + marked.removed.length : highlighted.length
  const missing = lit !== null && viewer ? given - lit.length : 0

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <p aria-live="polite" className="mr-auto text-slate-700">
          <span>{marked ? marksText(marked) : `${highlighted.length} highlighted`}</span>
          {missing > 0 ? (
            <span className="text-slate-500"> ({missing} not in the drawing's model space)</span>
          ) : null}
        </p>
        <ViewButton
          label="Zoom in"
          keyName="+"
          disabled={!viewer}
          onClick={() => viewer?.zoom(ZOOM_STEP)}
        />
        <ViewButton
          label="Zoom out"
          keyName="-"
          disabled={!viewer}
          onClick={() => viewer?.zoom(1 / ZOOM_STEP)}
        />
        <ViewButton
          label="Fit to view"
          keyName="0"
          disabled={!viewer}
          onClick={() => viewer?.fit()}
        />
        <ViewButton
          label="Zoom to selection"
          keyName={ZOOM_TO_SELECTION_KEY.toUpperCase()}
          disabled={!canZoomToSelection}
          onClick={zoomToSelection}
        />
      </div>
      <div
        role="application"
        aria-label={`Drawing of job ${jobId}: drag to pan, wheel or pinch to zoom, + and - to zoom, 0 to fit, F to zoom to the selection`}
        aria-busy={!viewer && !failed && !blank}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a pan-and-zoom surface that takes +, -, 0 and F
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        className="relative h-[28rem] w-full touch-none overflow-hidden rounded border border-slate-300 bg-black focus:outline-2 focus:outline-sky-600"
      >
        <div
          ref={mount}
          data-testid="drawing-canvas"
          className="boq-drawing relative h-full w-full"
        />
        {status ? (
          <p
            role={failed ? 'alert' : 'status'}
            className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-slate-200"
          >
            {status}
          </p>
        ) : null}
      </div>
    </div>
  )
}

/** What the colours mean, with how many of each (those given, found or not). */
function marksText({ added, removed }: DrawingMarks): string {
  const parts = [
    ...(added.length > 0 ? [`${added.length} added in green`] : []),
    ...(removed.length > 0 ? [`${removed.length} removed in red`] : []),
  ]
  return parts.length > 0 ? parts.join(', ') : 'Nothing added or removed'
}

function ViewButton({
  label,
  keyName,
  disabled,
  onClick,
}: {
  label: string
  keyName: string
  disabled: boolean
  onClick: () => void
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      aria-keyshortcuts={keyName}
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-slate-700 hover:bg-slate-50 disabled:opacity-50"
    >
      {label}
    </button>
  )
}
