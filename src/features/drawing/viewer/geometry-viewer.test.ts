import {
  type Camera,
  LineSegments,
  type OrthographicCamera,
  Points,
  type Scene,
  type ShaderMaterial,
} from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { drawnGeometryOf } from '#contract/testing/drawing-geometry.ts'
import type { DrawingViewer } from './drawing-viewer'
import { type GeometryRenderer, geometryViewer } from './geometry-viewer'

// The viewer with a renderer that draws nothing (jsdom has no WebGL): what it would draw is read
// from the scene and camera it hands the renderer, in the view's CSS pixels.

const WIDTH = 800
const HEIGHT = 600
const PIXEL_RATIO = 2

/** A floor 10 km across with 40 sprinkler heads (circles 10 units wide) on a grid. */
const HEADS = Array.from({ length: 40 }, (_, i) => ({
  x: 500 + (i % 8) * 1200,
  y: 600 + Math.floor(i / 8) * 1500,
}))
const FLOOR = drawnGeometryOf({
  handles: ['F00', ...HEADS.map((_, i) => (0x100 + i).toString(16).toUpperCase())],
  paths: [{ points: [0, 0, 10_000, 0, 10_000, 8000, 0, 8000, 0, 0], owner: 0 }],
  arcs: HEADS.map((head, i) => ({ ...head, radius: 5, owner: i + 1 })),
})
const HEAD_HANDLES = FLOOR.handles.toArray().slice(1)

let open: { viewer: DrawingViewer<typeof FLOOR>; container: HTMLElement } | undefined

afterEach(async () => {
  await open?.viewer.destroy()
  open?.container.remove()
  open = undefined
})

async function openFloor() {
  const container = document.createElement('div')
  Object.defineProperties(container, {
    clientWidth: { value: WIDTH },
    clientHeight: { value: HEIGHT },
  })
  container.getBoundingClientRect = () => new DOMRect(0, 0, WIDTH, HEIGHT)
  document.body.append(container)
  // Each drawing as it was when drawn: the viewer changes its scene and camera after.
  const drawings: { camera: OrthographicCamera; rings: Rings | undefined }[] = []
  const render = vi.fn((scene: Scene, camera: Camera) => {
    const shown = (camera as OrthographicCamera).clone()
    drawings.push({ camera: shown, rings: ringsOf(scene, shown) })
  })
  const renderer: GeometryRenderer = {
    domElement: document.createElement('canvas'),
    setSize: vi.fn(),
    render,
    getPixelRatio: () => PIXEL_RATIO,
    dispose: vi.fn(),
    forceContextLoss: vi.fn(),
  } as unknown as GeometryRenderer
  const viewer = geometryViewer(container, renderer)
  open = { viewer, container }
  await viewer.open(FLOOR)
  /** What the next drawing draws: waits for it (drawings are made on the next frame). */
  const nextDrawing = async () => {
    const before = drawings.length
    await vi.waitFor(() => expect(drawings.length).toBeGreaterThan(before))
    return drawings.at(-1) as (typeof drawings)[number]
  }
  return { viewer, nextDrawing }
}

/** A drawing point's place in the view, CSS pixels from its top left corner. */
function onScreen(camera: OrthographicCamera, x: number, y: number) {
  return {
    x: ((x - camera.left) / (camera.right - camera.left)) * WIDTH,
    y: ((camera.top - y) / (camera.top - camera.bottom)) * HEIGHT,
  }
}

/** The rings drawn: their centres on screen and their diameter in CSS pixels. */
type Rings = {
  diameterPx: number
  centres: { x: number; y: number }[]
  /** Drawn before the highlight's own lines: a ring never hides what it rings. */
  underLit: boolean
}

function ringsOf(scene: Scene, camera: OrthographicCamera): Rings | undefined {
  const points = scene.children.find((child): child is Points => child instanceof Points)
  if (!points) return undefined
  const centres = points.geometry.getAttribute('position')
  const material = points.material as ShaderMaterial
  const lit = scene.children.findLastIndex((child) => child instanceof LineSegments)
  return {
    underLit: scene.children.indexOf(points) < lit,
    diameterPx: (material.uniforms.size?.value as number) / PIXEL_RATIO,
    centres: Array.from({ length: centres.count }, (_, i) =>
      onScreen(camera, centres.getX(i), centres.getY(i)),
    ),
  }
}

describe('the geometry viewer’s rings around highlighted references', () => {
  it('rings each reference at least 10 px wide at the fitted zoom, centred on what it draws', async () => {
    const { viewer, nextDrawing } = await openFloor()
    expect(viewer.highlight(HEAD_HANDLES, { ringed: true })).toEqual(HEAD_HANDLES)
    viewer.fit()
    const { camera, rings } = await nextDrawing()

    // Fitted, a head is less than a pixel wide: lit, it would not be seen.
    const head = onScreen(camera, 5, 0).x - onScreen(camera, -5, 0).x
    expect(head).toBeLessThan(1)
    expect(rings?.diameterPx).toBeGreaterThanOrEqual(10)
    expect(rings?.centres).toHaveLength(40)
    expect(rings?.underLit).toBe(true)
    for (const [i, centre] of (rings?.centres ?? []).entries()) {
      const { x, y } = onScreen(camera, HEADS[i]?.x ?? Number.NaN, HEADS[i]?.y ?? Number.NaN)
      expect(centre.x).toBeCloseTo(x, 3)
      expect(centre.y).toBeCloseTo(y, 3)
    }
  })

  it('keeps the rings as wide on screen whatever the zoom', async () => {
    const { viewer, nextDrawing } = await openFloor()
    viewer.highlight(HEAD_HANDLES, { ringed: true })
    viewer.fit()
    const fitted = await nextDrawing()
    const fittedRings = fitted.rings
    viewer.zoom(1 / 8)
    const out = await nextDrawing()
    expect(out.camera.right - out.camera.left).toBeCloseTo(
      (fitted.camera.right - fitted.camera.left) * 8,
    )
    expect(out.rings?.diameterPx).toBe(fittedRings?.diameterPx)
    viewer.zoom(64)
    const close = await nextDrawing()
    expect(close.rings?.diameterPx).toBe(fittedRings?.diameterPx)
  })

  it('rings only what is asked to be ringed, and no more once the highlight goes', async () => {
    const { viewer, nextDrawing } = await openFloor()
    viewer.highlight(HEAD_HANDLES.slice(0, 3))
    viewer.fit()
    let drawn = await nextDrawing()
    expect(drawn.rings).toBeUndefined()
    viewer.highlight(HEAD_HANDLES.slice(0, 3), { ringed: true })
    drawn = await nextDrawing()
    expect(drawn.rings?.centres).toHaveLength(3)
    viewer.highlight([], { ringed: true })
    drawn = await nextDrawing()
    expect(drawn.rings).toBeUndefined()
  })

  it('picks the reference whose ring is clicked', async () => {
    const { viewer, nextDrawing } = await openFloor()
    viewer.highlight(HEAD_HANDLES, { ringed: true })
    viewer.fit()
    const { camera } = await nextDrawing()
    const head = onScreen(camera, HEADS[9]?.x ?? 0, HEADS[9]?.y ?? 0)
    // On the ring, 8 px from the head: farther than a click picks a shape by its lines.
    expect(viewer.handleAt(head.x + 8, head.y)).toBe(HEAD_HANDLES[9])
    viewer.highlight([])
    await nextDrawing()
    expect(viewer.handleAt(head.x + 8, head.y)).toBeUndefined()
  })
})

/** The names shown over the drawing: their text, centre (CSS px) and whether emphasised. */
function namesShown(container: HTMLElement) {
  const layer = container.querySelector('[data-testid="drawing-labels"]')
  return [...(layer?.querySelectorAll('span') ?? [])]
    .filter((name) => !name.hidden)
    .map((name) => {
      const [x, y] = [...name.style.transform.matchAll(/translate\((-?[\d.]+)px, (-?[\d.]+)px\)/g)]
        .map((match) => [Number(match[1]), Number(match[2])])
        .at(0) ?? [Number.NaN, Number.NaN]
      return { text: name.textContent, x, y, emphasised: name.dataset.emphasised === 'true' }
    })
}

describe('the geometry viewer’s names over the drawing', () => {
  it('names an outline at its middle, moving with the zoom; a speck only when emphasised', async () => {
    const { viewer, nextDrawing } = await openFloor()
    const container = open?.container as HTMLElement
    viewer.label([
      { handle: 'F00', text: 'Floor 1' },
      { handle: HEAD_HANDLES[9] as string, text: 'Head 10', emphasised: true },
      { handle: HEAD_HANDLES[10] as string, text: 'Head 11' },
    ])
    viewer.fit()
    const fitted = await nextDrawing()
    const head = onScreen(fitted.camera, HEADS[9]?.x ?? 0, HEADS[9]?.y ?? 0)
    expect(namesShown(container)).toEqual([
      { text: 'Head 10', x: Math.round(head.x), y: Math.round(head.y), emphasised: true },
      { text: 'Floor 1', x: WIDTH / 2, y: HEIGHT / 2, emphasised: false },
    ])
    // Twice as close about the middle: the head's name twice as far from it, the floor's still there.
    viewer.zoom(2)
    await nextDrawing()
    expect(namesShown(container)).toEqual([
      {
        text: 'Head 10',
        x: Math.round(WIDTH / 2 + (head.x - WIDTH / 2) * 2),
        y: Math.round(HEIGHT / 2 + (head.y - HEIGHT / 2) * 2),
        emphasised: true,
      },
      { text: 'Floor 1', x: WIDTH / 2, y: HEIGHT / 2, emphasised: false },
    ])
    // The names can be clicked through: a click picks what is under them.
    const layer = container.querySelector<HTMLElement>('[data-testid="drawing-labels"]')
    expect(layer?.style.pointerEvents).toBe('none')
    expect(layer).toHaveAttribute('aria-hidden', 'true')

    viewer.label([])
    await nextDrawing()
    expect(namesShown(container)).toEqual([])
  })

  it('takes its names away when it goes', async () => {
    const { viewer } = await openFloor()
    const container = open?.container as HTMLElement
    viewer.label([{ handle: 'F00', text: 'Floor 1' }])
    await viewer.destroy()
    expect(container.querySelector('[data-testid="drawing-labels"]')).toBeNull()
  })
})
