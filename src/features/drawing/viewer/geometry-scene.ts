import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  LinearSRGBColorSpace,
  LineBasicMaterial,
  LineSegments,
  type Material,
  Mesh,
  MeshBasicMaterial,
  type Points,
  Scene,
} from 'three'
import type { GeometryBuffers } from './geometry-buffers'

/** Buffers drawn in one colour over the drawing (a highlight, what a change added or removed). */
export type Overlay = { buffers: GeometryBuffers; colour: number }

/**
 * The drawing as three.js objects: one LineSegments for every line and one Mesh for every fill,
 * each drawn a colour at a time (a group per colour, one material each); the same drawn in
 * `dimmed` behind overlays. Fills go under lines, markers over both, overlays over everything
 * (a ring behind what it rings: the lit entity is never hidden by its own marker).
 * Nothing is tested for depth: the order they are added in is the order they are drawn in (the
 * renderer leaves them unsorted).
 */
export class GeometryScene {
  readonly scene = new Scene()
  private readonly colours: readonly number[]
  private readonly dimmedMaterials: Material[]
  private base: { shapes: (LineSegments | Mesh)[]; materials: Material[][] } | undefined
  private overlays: (LineSegments | Mesh)[] = []
  private markers: Points | undefined
  private dimmed = false

  constructor(colours: readonly number[], dimmed: number) {
    this.scene.matrixWorldAutoUpdate = false
    this.colours = colours
    this.dimmedMaterials = [fillMaterial(dimmed), lineMaterial(dimmed)]
  }

  /** Draws these buffers as the drawing, in place of those before (its overlays are kept). */
  setBase(buffers: GeometryBuffers): void {
    this.disposeBase()
    const fillMaterials = buffers.fillGroups.map(({ colour }) => fillMaterial(this.colours[colour]))
    const lineMaterials = buffers.lineGroups.map(({ colour }) => lineMaterial(this.colours[colour]))
    const fills = shapes('fills', buffers, this.dimmed ? this.dimmedMaterials[0] : fillMaterials)
    const lines = shapes('lines', buffers, this.dimmed ? this.dimmedMaterials[1] : lineMaterials)
    this.base = { shapes: [fills, lines], materials: [fillMaterials, lineMaterials] }
    this.scene.add(fills, lines)
    this.stackOverBase()
  }

  /** Draws these markers over the drawing, under its overlays, in place of those before. */
  setMarkers(markers: Points | undefined): void {
    this.disposeMarkers()
    this.markers = markers
    this.stackOverBase()
  }

  /** Puts the markers, then the overlays, last in the scene: drawn in that order over the base. */
  private stackOverBase() {
    if (this.markers) this.scene.add(this.markers)
    for (const overlay of this.overlays) this.scene.add(overlay)
  }

  /** Dims the drawing and draws these over it; none shows the drawing in its colours again. */
  show(overlays: readonly Overlay[]): void {
    this.disposeOverlays()
    for (const { buffers, colour } of overlays) {
      if (buffers.fills.length > 0)
        this.overlays.push(shapes('fills', buffers, fillMaterial(colour)))
      if (buffers.lines.length > 0)
        this.overlays.push(shapes('lines', buffers, lineMaterial(colour)))
    }
    // Every overlay's fills, then every overlay's lines.
    this.overlays.sort(
      (a, b) => Number(a instanceof LineSegments) - Number(b instanceof LineSegments),
    )
    this.stackOverBase()
    this.dimmed = overlays.length > 0
    this.base?.shapes.forEach((shape, i) => {
      shape.material = this.dimmed
        ? (this.dimmedMaterials[i] as Material)
        : (this.base?.materials[i] as Material[])
    })
  }

  dispose(): void {
    this.disposeMarkers()
    this.disposeOverlays()
    this.disposeBase()
    for (const material of this.dimmedMaterials) material.dispose()
  }

  private disposeOverlays() {
    for (const shape of this.overlays) {
      shape.removeFromParent()
      shape.geometry.dispose()
      ;(shape.material as Material).dispose()
    }
    this.overlays = []
  }

  private disposeMarkers() {
    if (!this.markers) return
    this.markers.removeFromParent()
    this.markers.geometry.dispose()
    ;(this.markers.material as Material).dispose()
    this.markers = undefined
  }

  private disposeBase() {
    if (!this.base) return
    for (const shape of this.base.shapes) {
      shape.removeFromParent()
      shape.geometry.dispose()
    }
    for (const material of this.base.materials.flat()) material.dispose()
    this.base = undefined
  }
}

/**
 * The buffers' fills (a Mesh) or lines (LineSegments): with a material a colour, a group each;
 * with one material, all of them in it.
 */
function shapes(
  kind: 'fills' | 'lines',
  buffers: GeometryBuffers,
  material: Material | Material[],
): LineSegments | Mesh {
  const geometry = new BufferGeometry()
  const array = kind === 'fills' ? buffers.fills : buffers.lines
  // Two numbers a vertex (the shader's z is 0): a third less to hold and to send.
  const position = new BufferAttribute(array, 2)
  // Once on the GPU, the page lets go of its copy (highlights are built from the geometry).
  position.onUpload(() => {
    ;(position as { array: unknown }).array = null
  })
  geometry.setAttribute('position', position)
  for (const [i, group] of (kind === 'fills' ? buffers.fillGroups : buffers.lineGroups).entries()) {
    geometry.addGroup(group.start, group.count, i)
  }
  const shape =
    kind === 'fills' ? new Mesh(geometry, material) : new LineSegments(geometry, material)
  // Its bounds are never worked out: nothing is culled (a colour is spread over the whole drawing).
  shape.frustumCulled = false
  shape.matrixAutoUpdate = false
  return shape
}

/**
 * The colour as given (0xRRGGBB), drawn as is: the renderer writes its output without conversion
 * (geometry-viewer.ts), so none is made on the way in either.
 */
const exactly = (hex: number) => new Color().setHex(hex, LinearSRGBColorSpace)

const lineMaterial = (hex: number) =>
  new LineBasicMaterial({ color: exactly(hex), depthTest: false, depthWrite: false, fog: false })

const fillMaterial = (hex: number) =>
  new MeshBasicMaterial({
    color: exactly(hex),
    side: DoubleSide,
    depthTest: false,
    depthWrite: false,
    fog: false,
  })
