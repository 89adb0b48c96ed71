import {
  BufferAttribute,
  BufferGeometry,
  Color,
  LinearSRGBColorSpace,
  Points,
  ShaderMaterial,
} from 'three'

/**
 * A marker's outer diameter and its ring's width, in CSS pixels, whatever the zoom: a block
 * reference fitted with a whole building is a pixel or two, and a ring this size still finds it.
 */
export const MARKER_PX = 20
export const MARKER_RING_PX = 3

/** Where rings go: a centre (x y pairs, the geometry's coordinates) for each owner in `owners`. */
export type MarkerPlaces = { centres: Float32Array; owners: number[] }

/**
 * The middle of each owner's extents (geometry-extents.ts): a ring centred on what is drawn for
 * it, where the person sees it (a block's insertion point may lie far from its contents). Owners
 * with nothing drawn get none: there is nothing to point at.
 */
export function markerPlaces(extents: Float64Array, owners: readonly number[]): MarkerPlaces {
  const centres: number[] = []
  const placed: number[] = []
  for (const owner of owners) {
    const at = owner * 4
    if (!(extents[at] <= extents[at + 2])) continue
    centres.push((extents[at] + extents[at + 2]) / 2, (extents[at + 1] + extents[at + 3]) / 2)
    placed.push(owner)
  }
  return { centres: new Float32Array(centres), owners: placed }
}

/** The owner whose ring holds (x, y): its centre within `radius`, the nearest if several. */
export function markerAt(
  { centres, owners }: MarkerPlaces,
  x: number,
  y: number,
  radius: number,
): number | undefined {
  let nearest: number | undefined
  let best = radius * radius
  for (let i = 0; i < owners.length; i++) {
    const d = (centres[2 * i] - x) ** 2 + (centres[2 * i + 1] - y) ** 2
    if (d <= best) {
      best = d
      nearest = owners[i]
    }
  }
  return nearest
}

// A point sprite as wide as `size` device pixels: the GPU keeps it that size at any zoom.
const VERTEX = `
uniform float size;
void main() {
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position.xy, 0.0, 1.0);
  gl_PointSize = size;
}
`

// Only the ring is drawn, hard edged (the renderer does not antialias): the reference inside
// stays visible, and its colour is exactly `colour`.
const FRAGMENT = `
uniform vec3 colour;
uniform float inner;
void main() {
  float d = length(gl_PointCoord - vec2(0.5)) * 2.0;
  if (d > 1.0 || d < inner) discard;
  gl_FragColor = vec4(colour, 1.0);
}
`

/**
 * The rings as three.js points, `MARKER_PX` CSS pixels wide on a screen of `pixelRatio` device
 * pixels to a CSS pixel, in `colour` (0xRRGGBB, written as is, as geometry-scene.ts writes its).
 */
export function markerPoints(centres: Float32Array, colour: number, pixelRatio: number): Points {
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(centres, 2))
  const material = new ShaderMaterial({
    uniforms: {
      size: { value: MARKER_PX * pixelRatio },
      inner: { value: 1 - (2 * MARKER_RING_PX) / MARKER_PX },
      colour: { value: new Color().setHex(colour, LinearSRGBColorSpace) },
    },
    vertexShader: VERTEX,
    fragmentShader: FRAGMENT,
    depthTest: false,
    depthWrite: false,
  })
  const points = new Points(geometry, material)
  points.frustumCulled = false
  points.matrixAutoUpdate = false
  return points
}
