import './cad-viewer.css'
import {
  type AcApCompareDisplayRole,
  AcApDocManager,
  AcApOpenFileProfiler,
  AcEdOpenMode,
  AcEdViewMode,
} from '@mlightcad/cad-simple-viewer'
import {
  AcDbDatabaseConverterManager,
  type AcDbEntity,
  AcDbFileType,
  AcGeBox2d,
} from '@mlightcad/data-model'
import { AcDbLibreDwgConverter } from '@mlightcad/libredwg-converter'
import {
  ADDED_COLOR,
  DIMMED_COLOR,
  FRAME_MARGIN,
  HIGHLIGHT_COLOR,
  REMOVED_COLOR,
} from './drawing-look'
import { DrawingPace } from './drawing-pace'
import type { CreateDrawingViewer, DrawingViewer } from './drawing-viewer'
import parserUrl from './dwg-parser.worker.ts?worker&url'
import { dxfWithoutText } from './dxf-without-text'
import { withFewerArcPoints } from './fewer-arc-points'
import { withoutLibraryStyles } from './library-styles'
import { type Extents, mainExtents, withSomeSize } from './main-extents'
import { movePicture } from './move-picture'
import { markDrawing } from './timing'
import { withoutAntialias } from './without-antialias'

/** Lines without ends have no extents to frame. */
const UNBOUNDED = new Set(['Xline', 'Ray'])
/** How long a drawing may take to be drawn once read before the view shows it anyway. */
const DRAWING_WAIT_MS = 30_000
/**
 * A drawing that took longer than this to draw (under 20 frames a second) is panned and zoomed
 * with the wheel by moving its picture: redrawn at every move, a drag would stutter.
 */
const SLOW_DRAWING_MS = 50

// The viewer is one per page (AcApDocManager is a singleton): a new view waits for the last to go.
let lastDestroyed: Promise<void> = Promise.resolve()
let converterRegistered = false

/**
 * The drawing view's renderer: @mlightcad/cad-simple-viewer, reading DWG with LibreDWG (in a
 * worker) and DXF with its data model's own reader.
 */
export const createCadViewer: CreateDrawingViewer = async (container) => {
  await lastDestroyed
  if (!converterRegistered) {
    AcDbDatabaseConverterManager.instance.register(
      AcDbFileType.DWG,
      new AcDbLibreDwgConverter({ useWorker: true, parserWorkerUrl: parserUrl }),
    )
    converterRegistered = true
  }
  const manager = await withoutLibraryStyles(() =>
    withoutAntialias(() =>
      AcApDocManager.createInstance({ container, autoResize: true, useMainThreadDraw: true }),
    ),
  )
  if (!manager) throw new Error('The drawing viewer could not start.')
  return cadViewer(manager, container)
}

function cadViewer(manager: AcApDocManager, container: HTMLElement): DrawingViewer {
  const view = manager.curView
  // The viewer's own shortcuts listen on the whole page (Delete and Backspace erase, Ctrl+Z
  // undoes, Escape clears its selection); a drawing shown read-only has none of them, and a key
  // pressed anywhere on the page would log a refused command. Its key handler is swapped for one
  // that handles nothing (a private field of AcTrView2d in 1.6.3).
  ;(view as unknown as { _keyHandler: { handleKeyDown(e: KeyboardEvent): boolean } })._keyHandler =
    { handleKeyDown: () => false }
  // The viewer frames a drawing it opens by itself: its zoomToFitDrawing polls (every 300 ms)
  // until the drawing is drawn, then frames every entity, a huge block with them (the rest left a
  // speck, or out of view). That lands after `open` has framed the drawing's main extents, so the
  // view opened on the block. The view frames the drawing only where `open` and `fit` do.
  view.zoomToFitDrawing = () => {}
  withFewerArcPoints(view.renderer)
  let shown: string[] = []

  // Every animation frame of the view, and whether it draws in it, times its drawing.
  const pace = new DrawingPace()
  view.events.renderFrame.addEventListener(() => pace.frame(view.isDirty, performance.now()))
  const picture = movePicture(container, {
    picture: () => view.canvas,
    wanted: () => pace.lastMs > SLOW_DRAWING_MS,
    setViewerPanning(on) {
      // Panning alone (a private field of AcTrBaseView in 1.6.3, three.js's OrbitControls): its
      // `enabled` would turn zooming off too, and a pinch's fingers would go unseen.
      const layout = view.activeLayoutView as unknown as { _cameraControls: { enablePan: boolean } }
      layout._cameraControls.enablePan = on
    },
    show({ scale, dx, dy }) {
      // The picture's corners now show what was at these points of the view.
      view.zoomTo(
        viewBox((x, y) => ({ x: (x - dx) / scale, y: (y - dy) / scale })),
        1,
      )
    },
  })

  /**
   * The box of the drawing between the drawing's points at the view's corners; with `from`, at
   * the points of the view that `from` gives for each corner.
   */
  function viewBox(from = (x: number, y: number) => ({ x, y })): AcGeBox2d {
    const corner = (x: number, y: number) => view.screenToWorld(from(x, y))
    return new AcGeBox2d()
      .expandByPoint(corner(0, 0))
      .expandByPoint(corner(view.width, view.height))
  }

  const modelSpace = () => manager.curDocument.database.tables.blockTable.modelSpace
  const entityOf = (handle: string) => modelSpace().getIdAt(handle.toUpperCase())

  /** The handles model space holds, upper case (as the viewer keys them), once each. */
  function inModelSpace(handles: readonly string[]): string[] {
    return [...new Set(handles.map((h) => h.toUpperCase()))].filter((h) => entityOf(h))
  }

  /** Colours these entities by role and dims the rest; none shows the layers' colours again. */
  function paint(roles: Map<string, AcApCompareDisplayRole>): void {
    if (roles.size === 0 && shown.length === 0) return
    const cleared = shown.filter((h) => !roles.has(h))
    manager.setCompareDisplay({
      enabled: roles.size > 0,
      baseColor: DIMMED_COLOR,
      colors: { modified: HIGHLIGHT_COLOR, added: ADDED_COLOR, deleted: REMOVED_COLOR },
      overrides: [
        ...cleared.map((objectId) => ({ objectId, role: null })),
        ...[...roles].map(([objectId, role]) => ({ objectId, role })),
      ],
    })
    shown = [...roles.keys()]
  }

  /** The entities' extents, those that have any (lines without ends and empty ones have none). */
  function extentsOf(entities: Iterable<AcDbEntity>): Extents[] {
    const boxes: Extents[] = []
    for (const entity of entities) {
      if (UNBOUNDED.has(entity.type)) continue
      const extents = entity.geometricExtents
      if (extents.isEmpty()) continue
      const { min, max } = extents
      boxes.push({ minX: min.x, minY: min.y, maxX: max.x, maxY: max.y })
    }
    return boxes
  }

  // The drawing is read only: its main extents are worked out once, on the first fit.
  let drawingBox: { extents: Extents | undefined } | undefined
  function mainBox(): Extents | undefined {
    drawingBox ??= { extents: mainExtents(extentsOf(modelSpace().newIterator())) }
    return drawingBox.extents
  }

  function frame(box: Extents | undefined): void {
    picture.settle()
    if (!box) return
    view.zoomTo(toBox(withSomeSize(box, mainBox())), FRAME_MARGIN)
  }

  const viewer: DrawingViewer = {
    async open({ bytes, format }, onProgress) {
      // The viewer tells DWG from DXF by the file name's extension. A DWG loses its text in the
      // reader's worker; a DXF is read on this thread, so it loses it before.
      const content = format === 'dxf' ? dxfWithoutText(bytes) : bytes
      // The viewer asks, for each entity it adds, whether it has it already, and each layer in
      // turn: 200,000 entities on 200 layers were 40 million lookups, a third of building the
      // scene. A drawing opened once, read only, adds each entity once.
      view.hasEntity = () => false
      // The document the viewer starts with is the one it opens the drawing into.
      const progress = manager.curDocument.database.events.openProgress
      const tell = ({ percentage }: { percentage: number }) => onProgress?.(percentage)
      progress.addEventListener(tell)
      try {
        const opened = await withoutLibraryStyles(() =>
          manager.openDocument(`drawing.${format}`, content, { mode: AcEdOpenMode.Read }),
        )
        if (!opened) throw new Error('This drawing could not be read.')
        markDrawing('read', AcApOpenFileProfiler.getLastSnapshot())
        // Dragging pans; the viewer's own selection and hover stay off (the page owns the
        // selection). Both belong to the drawing's layout, there once it is open.
        view.mode = AcEdViewMode.PAN
        view.entitySelectionEnabled = false
        await drawn(view)
      } finally {
        progress.removeEventListener(tell)
        // Its own lookup again (the prototype's), for whatever changes the scene later.
        delete (view as { hasEntity?: unknown }).hasEntity
      }
      markDrawing('drawn')
      viewer.fit()
      markDrawing('fitted')
    },
    highlight(handles) {
      const found = inModelSpace(handles)
      paint(new Map(found.map((handle) => [handle, 'modified'])))
      return found
    },
    mark({ added, removed }) {
      const found = { added: inModelSpace(added), removed: inModelSpace(removed) }
      paint(
        new Map<string, AcApCompareDisplayRole>([
          ...found.added.map((handle) => [handle, 'added'] as const),
          ...found.removed.map((handle) => [handle, 'deleted'] as const),
        ]),
      )
      return found
    },
    zoomToHandles(handles) {
      const entities = handles.flatMap((h) => entityOf(h) ?? [])
      if (entities.length === 0) viewer.fit()
      else frame(mainExtents(extentsOf(entities)))
    },
    fit() {
      frame(mainBox())
    },
    zoom(factor) {
      picture.settle()
      const box = viewBox()
      const center = box.getCenter(new AcGeBox2d().min.clone())
      const half = box.getSize(center.clone()).multiplyScalar(0.5 / factor)
      view.zoomTo(new AcGeBox2d(center.clone().sub(half), center.clone().add(half)), 1)
    },
    handleAt(clientX, clientY) {
      const point = view.screenToWorld(view.viewportToCanvas({ x: clientX, y: clientY }))
      const hit = view.pick(point, undefined, true)[0]
      return hit?.id || undefined
    },
    async destroy() {
      picture.stop()
      // Its frame-rate panel (hidden) goes into <body>, and destroy() leaves it there.
      ;(view as unknown as { _stats?: { dom?: HTMLElement } })._stats?.dom?.remove()
      const done = manager.destroy()
      lastDestroyed = done.catch(() => {})
      await done
    },
  }
  return viewer
}

/** Resolves when the viewer has drawn every entity it read (or after DRAWING_WAIT_MS). */
function drawn(view: { isProcessingEntities: boolean }): Promise<void> {
  const started = performance.now()
  return new Promise((resolve) => {
    const check = () => {
      if (!view.isProcessingEntities || performance.now() - started > DRAWING_WAIT_MS) resolve()
      else setTimeout(check, 50)
    }
    check()
  })
}

function toBox(extents: Extents): AcGeBox2d {
  return new AcGeBox2d({ x: extents.minX, y: extents.minY }, { x: extents.maxX, y: extents.maxY })
}
