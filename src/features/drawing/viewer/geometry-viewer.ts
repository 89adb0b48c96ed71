import { LinearSRGBColorSpace, OrthographicCamera, WebGLRenderer } from 'three'
import type { DrawnGeometry } from '#contract/drawing-geometry.ts'
import {
  ADDED_COLOR,
  DIMMED_COLOR,
  FRAME_MARGIN,
  HIGHLIGHT_COLOR,
  MARKER_COLOR,
  REMOVED_COLOR,
} from './drawing-look'
import { DrawingPace } from './drawing-pace'
import type { CreateDrawingViewer, DrawingViewer } from './drawing-viewer'
import {
  type BufferOptions,
  bufferSteps,
  buildBuffers,
  type GeometryBuffers,
} from './geometry-buffers'
import {
  afterPictureMove,
  drawingPoint,
  framing,
  limitedZoom,
  panned,
  type ViewPlace,
  type ViewSize,
  viewExtents,
  zoomedAbout,
} from './geometry-camera'
import { type Detail, detailFor, FLOOR_SHARE, nextDetail, toleranceAt } from './geometry-detail'
import { mainBoxOf, ownerExtents } from './geometry-extents'
import { listenToGestures } from './geometry-gestures'
import { type LabelPlaces, labelPlaces, layoutLabels } from './geometry-labels'
import {
  MARKER_PX,
  type MarkerPlaces,
  markerAt,
  markerPlaces,
  markerPoints,
} from './geometry-markers'
import { OwnerIndex, ownerMask } from './geometry-owners'
import { ownerAt } from './geometry-pick'
import { GeometryScene, type Overlay } from './geometry-scene'
import { LabelLayer } from './label-layer'
import { type Extents, withSomeSize } from './main-extents'
import { movePicture } from './move-picture'
import { markDrawing } from './timing'
import { yieldToPage } from './yield-to-page'

/** Model space's background, as AutoCAD draws it. */
const BACKGROUND = 0x000000
/**
 * A drawing that took longer than this to draw (one that misses the screen's next frame) is
 * panned and zoomed with the wheel by moving its picture: redrawn at every move, a drag would
 * stutter, or follow at half the screen's rate at best.
 */
const SLOW_DRAWING_MS = 25
/** How near (CSS px) a click must come to a shape to pick it. */
const PICK_PX = 5
/** Building buffers lets the page breathe (and tells its progress) after this long (ms). */
const SLICE_MS = 50

/**
 * The drawing view's renderer of the geometry the server built: three.js drawing its lines and
 * fills, on demand (after opening, a move, a zoom, a highlight, a resize), never in a loop.
 */
export const createGeometryViewer: CreateDrawingViewer<DrawnGeometry> = async (container) => {
  // Without antialiasing: without a GPU, multisampling is most of a frame.
  // No depth: shapes are drawn in order, over one another.
  const renderer = new WebGLRenderer({
    antialias: false,
    depth: false,
    stencil: false,
    powerPreference: 'high-performance',
  })
  // Colours are written as given, 0xRRGGBB to the screen (geometry-scene.ts).
  renderer.outputColorSpace = LinearSRGBColorSpace
  renderer.setClearColor(BACKGROUND)
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2))
  renderer.sortObjects = false
  renderer.domElement.style.display = 'block'
  container.append(renderer.domElement)
  return geometryViewer(container, renderer)
}

/** What the viewer asks of its renderer (tests give one that draws nothing). */
export type GeometryRenderer = Pick<
  WebGLRenderer,
  'domElement' | 'setSize' | 'render' | 'getPixelRatio' | 'dispose' | 'forceContextLoss'
>

/** What the viewer holds once a drawing is open. */
type Opened = {
  geometry: DrawnGeometry
  scene: GeometryScene
  owners: OwnerIndex
  /** Each owner's extents (geometry-extents.ts). */
  extents: Float64Array
  /** The drawing's main extents (what fitting frames), none when nothing is drawn. */
  main: Extents | undefined
  /** The main extents' larger side. */
  drawingSize: number
  /** Level 0's tolerance, and how finely arcs are built (geometry-detail.ts). */
  floor: number
  detail: Detail
  /** What is shown over the dimmed drawing: owners in a colour (none: the drawing's colours). */
  roles: Role[]
  /** Where the highlight's rings are, if it has any. */
  markers: MarkerPlaces | undefined
  /** The names drawn over the drawing, if it has any. */
  labels: LabelPlaces | undefined
}

type Role = { owners: number[]; colour: number }

export function geometryViewer(
  container: HTMLElement,
  renderer: GeometryRenderer,
): DrawingViewer<DrawnGeometry> {
  const canvas = renderer.domElement
  const camera = new OrthographicCamera(-1, 1, 1, -1, -1, 1)
  let size = measure()
  renderer.setSize(size.width, size.height)
  let place: ViewPlace = { x: 0, y: 0, unitsPerPx: 1 }
  let opened: Opened | undefined
  let destroyed = false
  const labelLayer = new LabelLayer(container)

  function measure(): ViewSize {
    return { width: container.clientWidth, height: container.clientHeight }
  }

  // Drawing on demand: at most once an animation frame, and two more frames after each drawing
  // to time it (the GPU draws after the call returns: the pace is read from the gaps between frames).
  const pace = new DrawingPace()
  let frame: number | undefined
  let drawWanted = false
  let framesToTime = 0

  function draw() {
    if (!opened) return
    const view = viewExtents(place, size)
    const detail = nextDetail(opened.detail, view, place.unitsPerPx, opened.floor)
    if (detail && opened.geometry.arcOwners.length > 0) {
      opened.detail = detail
      opened.scene.setBase(buildBuffers(opened.geometry, buildOptions(opened)))
      if (opened.roles.length > 0) opened.scene.show(overlaysOf(opened, opened.roles))
    }
    camera.left = view.minX
    camera.right = view.maxX
    camera.top = view.maxY
    camera.bottom = view.minY
    camera.updateProjectionMatrix()
    renderer.render(opened.scene.scene, camera)
    placeLabels(place)
    framesToTime = 2
    if (frame === undefined) frame = requestAnimationFrame(onFrame)
  }

  function onFrame(now: number) {
    frame = undefined
    const draws = drawWanted && opened !== undefined
    pace.frame(draws, now)
    if (draws) {
      drawWanted = false
      draw()
    } else if (--framesToTime > 0 || drawWanted) {
      frame = requestAnimationFrame(onFrame)
    }
  }

  function requestDraw() {
    if (!opened) return
    drawWanted = true
    if (frame === undefined) frame = requestAnimationFrame(onFrame)
  }

  /** Places the names for the view at `shown` (the view's place, or where the picture took it). */
  function placeLabels(shown: ViewPlace) {
    const labels = opened?.labels
    labelLayer.show(labels, labels ? layoutLabels(labels, shown, size) : [])
  }

  /** Draws in this task: the browser shows the new drawing with whatever else this task changed. */
  function drawNow() {
    drawWanted = false
    pace.frame(true, performance.now())
    draw()
  }

  // Off while a drag moves the picture instead (move-picture.ts).
  let panning = true
  const picture = movePicture(container, {
    picture: () => canvas,
    wanted: () => pace.lastMs > SLOW_DRAWING_MS,
    setViewerPanning(on) {
      panning = on
    },
    show(move) {
      place = afterPictureMove(place, move, size)
      drawNow()
    },
    // The names follow the picture as it moves, at their own size: nothing is drawn meanwhile.
    moved(move) {
      placeLabels(afterPictureMove(place, move, size))
    },
  })

  function zoomAbout(factor: number, px: number, py: number) {
    const limited = limitedZoom(place, factor, opened?.drawingSize ?? 0)
    place = zoomedAbout(place, limited, px, py, size)
    requestDraw()
  }

  const stopGestures = listenToGestures(container, {
    panning: () => panning,
    panBy(dx, dy) {
      place = panned(place, dx, dy)
      requestDraw()
    },
    zoomAt(factor, clientX, clientY) {
      const box = container.getBoundingClientRect()
      zoomAbout(factor, clientX - box.left, clientY - box.top)
    },
  })

  // The view keeps its middle and its scale as it changes size; one opened while it had no size
  // (hidden) is framed when it gets one.
  const resizes = new ResizeObserver(() => {
    const now = measure()
    if (now.width === size.width && now.height === size.height) return
    picture.settle()
    const hidden = size.width === 0 || size.height === 0
    size = now
    renderer.setSize(size.width, size.height)
    if (hidden) viewer.fit()
    requestDraw()
  })
  resizes.observe(container)

  function frameBox(box: Extents | undefined) {
    picture.settle()
    if (!box || !opened) return
    place = framing(withSomeSize(box, opened.main), size, FRAME_MARGIN)
    requestDraw()
  }

  /** Dims the drawing under these owners in their colours; none shows its colours again. */
  function paint(roles: Role[]) {
    if (!opened) return
    const shown = roles.filter(({ owners }) => owners.length > 0)
    if (shown.length === 0 && opened.roles.length === 0) return
    opened.roles = shown
    opened.scene.show(overlaysOf(opened, shown))
    requestDraw()
  }

  /** Rings these owners (none: takes the rings away). */
  function ring(owners: readonly number[]) {
    if (!opened) return
    const places = markerPlaces(opened.extents, owners)
    const markers = places.owners.length > 0 ? places : undefined
    if (!markers && !opened.markers) return
    opened.markers = markers
    opened.scene.setMarkers(
      markers && markerPoints(markers.centres, MARKER_COLOR, renderer.getPixelRatio()),
    )
    requestDraw()
  }

  const viewer: DrawingViewer<DrawnGeometry> = {
    async open(geometry, onProgress) {
      if (destroyed) return
      const started = performance.now()
      const extents = ownerExtents(geometry)
      const main = mainBoxOf(extents)
      const drawingSize = main ? Math.max(main.maxX - main.minX, main.maxY - main.minY) : 0
      if (main) place = framing(withSomeSize(main, main), size, FRAME_MARGIN)
      const floor = drawingSize * FLOOR_SHARE
      const detail = detailFor(viewExtents(place, size), place.unitsPerPx, floor)
      const steps = bufferSteps(geometry, buildOptions({ floor, detail }))
      let buffers: GeometryBuffers | undefined
      let sliceStarted = performance.now()
      while (!buffers) {
        const step = steps.next()
        if (step.done) buffers = step.value
        else if (performance.now() - sliceStarted > SLICE_MS) {
          onProgress?.(step.value)
          await yieldToPage()
          if (destroyed) return
          sliceStarted = performance.now()
        }
      }
      const scene = new GeometryScene(geometry.colours, DIMMED_COLOR)
      scene.setBase(buffers)
      const owners = new OwnerIndex(geometry.handles)
      opened = {
        geometry,
        scene,
        owners,
        extents,
        main,
        drawingSize,
        floor,
        detail,
        roles: [],
        markers: undefined,
        labels: undefined,
      }
      const built = performance.now()
      markDrawing('read')
      drawNow()
      markDrawing('drawn', {
        buildMs: built - started,
        renderCallMs: performance.now() - built,
        segments: buffers.lines.length / 4,
        triangles: buffers.fills.length / 6,
      })
      // Handles are looked up when a bill line is chosen: the lookup is made while the page rests.
      whenIdle(() => {
        if (!destroyed) owners.lookup()
      })
    },
    highlight(handles, { ringed = false } = {}) {
      if (!opened) return []
      const found = opened.owners.find(handles)
      paint([{ owners: found.owners, colour: HIGHLIGHT_COLOR }])
      ring(ringed ? found.owners : [])
      return found.handles
    },
    mark({ added, removed }) {
      if (!opened) return { added: [], removed: [] }
      const addedFound = opened.owners.find(added)
      const removedFound = opened.owners.find(removed)
      paint([
        { owners: addedFound.owners, colour: ADDED_COLOR },
        { owners: removedFound.owners, colour: REMOVED_COLOR },
      ])
      ring([])
      return { added: addedFound.handles, removed: removedFound.handles }
    },
    label(labels) {
      if (!opened) return
      if (labels.length === 0 && !opened.labels) return
      const { geometry, extents, owners } = opened
      const places = labelPlaces(geometry, extents, labels, (handle) => owners.ownerOf(handle))
      opened.labels = places.texts.length > 0 ? places : undefined
      requestDraw()
    },
    zoomToHandles(handles) {
      if (!opened) return
      const { owners } = opened.owners.find(handles)
      if (owners.length === 0) viewer.fit()
      else frameBox(mainBoxOf(opened.extents, owners))
    },
    fit() {
      frameBox(opened?.main)
    },
    zoom(factor) {
      picture.settle()
      zoomAbout(factor, size.width / 2, size.height / 2)
    },
    handleAt(clientX, clientY) {
      if (!opened) return undefined
      const box = container.getBoundingClientRect()
      const point = drawingPoint(place, clientX - box.left, clientY - box.top, size)
      // A ring is where the person sees its reference: a click inside it picks the reference.
      const ringed =
        opened.markers &&
        markerAt(opened.markers, point.x, point.y, (MARKER_PX / 2) * place.unitsPerPx)
      const owner = ringed ?? ownerAt(opened.geometry, point.x, point.y, PICK_PX * place.unitsPerPx)
      return owner === undefined ? undefined : opened.geometry.handles.at(owner)
    },
    async destroy() {
      if (destroyed) return
      destroyed = true
      picture.stop()
      stopGestures()
      resizes.disconnect()
      if (frame !== undefined) cancelAnimationFrame(frame)
      opened?.scene.dispose()
      opened = undefined
      labelLayer.dispose()
      renderer.dispose()
      // The page may hold only so many WebGL contexts: this one goes now, not when collected.
      renderer.forceContextLoss()
      canvas.remove()
    },
  }
  return viewer
}

/** How the drawing is built at the detail it has (geometry-detail.ts). */
function buildOptions({ floor, detail }: Pick<Opened, 'floor' | 'detail'>): BufferOptions {
  const { level, near } = detail
  return {
    tolerance: toleranceAt(floor, Math.max(0, level)),
    near: near && { box: near, tolerance: toleranceAt(floor, level) },
  }
}

/** The roles' owners, built as the drawing is, to be drawn over it in their colours. */
function overlaysOf(opened: Opened, roles: Role[]): Overlay[] {
  const { geometry } = opened
  return roles.map(({ owners, colour }) => ({
    buffers: buildBuffers(geometry, {
      ...buildOptions(opened),
      owners: ownerMask(geometry.handles.length, owners),
    }),
    colour,
  }))
}

/** Runs `work` when the page next rests (soon, where the browser cannot tell). */
function whenIdle(work: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 2000 })
  else setTimeout(work, 200)
}
