/**
 * The drawing's geometry as the server sends it to the drawing view (GET /jobs/{id}/geometry):
 * model space flattened to paths, circular arcs and filled triangles, each with the model-space
 * entity it belongs to (a block reference owns everything drawn inside it) and its colour.
 * Built once when the engine reads the drawing and kept with the job's results; binary, so that
 * 200,000 entities arrive and open as typed arrays, without parsing a number at a time.
 *
 * Layout (little-endian, as every browser and Node on x86 and ARM are): "BOQG", the format's
 * version (u32), the header's length in bytes (u32), the header (JSON, UTF-8), padding to a
 * multiple of 4, then the owners' handles as numbers (u32, one an owner, each as its difference
 * from the one before, modulo 2^32: handles mostly rise one by one, and the differences compress
 * well; 0 for those that are not plain hex, which the header lists in `otherHandles` as owner and
 * text), then the arrays in the order of GEOMETRY_ARRAYS. A million handles as JSON text took the
 * browser a quarter of a second to read, and their lookup two. Version 1 (kept by jobs recorded
 * before) had every handle as text in the header, and no handle numbers; it is still read.
 */

import { GeometryHandles } from './geometry-handles.ts'

export const GEOMETRY_VERSION = 2
export const GEOMETRY_CONTENT_TYPE = 'application/vnd.boq.geometry'

/** A geometry whose model-space handles are held as `Handles` (owners index them). */
type GeometryOf<Handles> = {
  /** Drawing coordinates are the stored ones plus this: float32 keeps them exact near zero. */
  origin: [number, number]
  /** Extents of everything drawn, stored coordinates: min x, min y, max x, max y (zeros: empty). */
  bounds: [number, number, number, number]
  /** Model-space entity handles (hex, as the bill names them); owners index them. */
  handles: Handles
  /** Colours as 0xRRGGBB; colours index this list. */
  colours: number[]
  /** Path points, x y pairs. A closed path repeats its first point at its end. */
  points: Float32Array
  /** Path i runs over points pathStarts[i] … pathStarts[i + 1] - 1 (one more entry than paths). */
  pathStarts: Uint32Array
  pathOwners: Uint32Array
  pathColours: Uint32Array
  /** Circular arcs: centre x, centre y, radius, start angle, sweep (radians, counter-clockwise). */
  arcs: Float32Array
  arcOwners: Uint32Array
  arcColours: Uint32Array
  /** Filled triangles (hatches, solids): x1 y1 x2 y2 x3 y3. */
  triangles: Float32Array
  triangleOwners: Uint32Array
  triangleColours: Uint32Array
}

/** The geometry as the server builds it, and as decodeGeometry reads it: handles as text. */
export type DrawingGeometry = GeometryOf<string[]>

/** The geometry as the drawing view holds it (decodeDrawnGeometry): handles as numbers. */
export type DrawnGeometry = GeometryOf<GeometryHandles>

type ArrayName = Exclude<keyof DrawingGeometry, 'origin' | 'bounds' | 'handles' | 'colours'>

/** The arrays in the order they follow the header, with how many numbers each item takes. */
export const GEOMETRY_ARRAYS: readonly { name: ArrayName; float: boolean }[] = [
  { name: 'points', float: true },
  { name: 'pathStarts', float: false },
  { name: 'pathOwners', float: false },
  { name: 'pathColours', float: false },
  { name: 'arcs', float: true },
  { name: 'arcOwners', float: false },
  { name: 'arcColours', float: false },
  { name: 'triangles', float: true },
  { name: 'triangleOwners', float: false },
  { name: 'triangleColours', float: false },
]

type Header = Pick<DrawingGeometry, 'origin' | 'bounds' | 'colours'> & {
  /** Each array's length, in numbers; handleNumbers' is the number of owners. */
  lengths: Record<ArrayName | 'handleNumbers', number>
  /** The handles that are not plain hex: owner, text. */
  otherHandles: [number, string][]
}

/** Version 1's header: every handle as text. */
type HeaderV1 = Pick<DrawingGeometry, 'origin' | 'bounds' | 'colours' | 'handles'> & {
  lengths: Record<ArrayName, number>
}

const MAGIC = 'BOQG'
const FIXED_BYTES = 12

const QUARTER = Math.PI / 2
// The quarter turns' directions, exactly: east, north, west, south.
const AXIS_X = [1, 0, -1, 0]
const AXIS_Y = [0, 1, 0, -1]

/**
 * The points that bound an arc of the geometry (start and sweep in radians, counter-clockwise; a
 * negative sweep runs the other way): its two ends and each quarter turn its sweep passes.
 */
export function arcBounds(
  cx: number,
  cy: number,
  radius: number,
  start: number,
  sweep: number,
  add: (x: number, y: number) => void,
): void {
  const end = start + sweep
  add(cx + radius * Math.cos(start), cy + radius * Math.sin(start))
  add(cx + radius * Math.cos(end), cy + radius * Math.sin(end))
  const from = Math.min(start, end)
  const to = Math.min(Math.max(start, end), from + 2 * Math.PI)
  for (let quarter = Math.ceil(from / QUARTER); quarter * QUARTER <= to; quarter++) {
    const axis = ((quarter % 4) + 4) % 4
    add(cx + radius * AXIS_X[axis], cy + radius * AXIS_Y[axis])
  }
}

/** How many paths, arcs and triangles the geometry holds. */
export function geometryCounts(
  geometry: Pick<DrawingGeometry, 'pathOwners' | 'arcOwners' | 'triangleOwners'>,
) {
  return {
    paths: geometry.pathOwners.length,
    arcs: geometry.arcOwners.length,
    triangles: geometry.triangleOwners.length,
  }
}

export function encodeGeometry(geometry: DrawingGeometry): Uint8Array {
  const { origin, bounds, colours } = geometry
  const handles = GeometryHandles.of(geometry.handles)
  const arrays = [
    differences(handles.numbers),
    ...GEOMETRY_ARRAYS.map(({ name }) => geometry[name] as Float32Array | Uint32Array),
  ]
  const lengths = Object.fromEntries([
    ['handleNumbers', handles.length],
    ...GEOMETRY_ARRAYS.map(({ name }) => [name, geometry[name].length]),
  ]) as Header['lengths']
  const otherHandles = [...handles.texts]
  const header = new TextEncoder().encode(
    JSON.stringify({ origin, bounds, colours, lengths, otherHandles } satisfies Header),
  )
  const arraysAt = align4(FIXED_BYTES + header.length)
  const size = arrays.reduce((sum, array) => sum + array.byteLength, arraysAt)
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode(MAGIC), 0)
  const fixed = new DataView(bytes.buffer)
  fixed.setUint32(4, GEOMETRY_VERSION, true)
  fixed.setUint32(8, header.length, true)
  bytes.set(header, FIXED_BYTES)
  let at = arraysAt
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at)
    at += array.byteLength
  }
  return bytes
}

/** Reads what encodeGeometry wrote; throws an Error saying what is wrong with anything else. */
export function decodeGeometry(input: ArrayBuffer | Uint8Array): DrawingGeometry {
  const drawn = decodeDrawnGeometry(input)
  return { ...drawn, handles: drawn.handles.toArray() }
}

/**
 * Reads what encodeGeometry wrote as the drawing view holds it: the arrays are views of the bytes
 * (nothing copied), the handles numbers. Throws an Error saying what is wrong with anything else.
 */
export function decodeDrawnGeometry(input: ArrayBuffer | Uint8Array): DrawnGeometry {
  // The arrays are views of the bytes: they must start on a multiple of 4.
  const bytes =
    input instanceof Uint8Array
      ? input.byteOffset % 4 === 0
        ? input
        : input.slice()
      : new Uint8Array(input)
  if (bytes.length < FIXED_BYTES || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) {
    throw new Error('Not drawing geometry.')
  }
  const fixed = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = fixed.getUint32(4, true)
  if (version !== GEOMETRY_VERSION && version !== 1) {
    throw new Error(`Drawing geometry of version ${version}; this app reads ${GEOMETRY_VERSION}.`)
  }
  const headerLength = fixed.getUint32(8, true)
  if (FIXED_BYTES + headerLength > bytes.length) throw new Error('Drawing geometry cut short.')
  let header: Header & Partial<HeaderV1>
  try {
    header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(FIXED_BYTES, FIXED_BYTES + headerLength)),
    ) as Header & Partial<HeaderV1>
  } catch {
    throw new Error('Drawing geometry with an unreadable header.')
  }
  let at = bytes.byteOffset + align4(FIXED_BYTES + headerLength)
  const end = bytes.byteOffset + bytes.length
  const read = (length: number | undefined, float: boolean) => {
    if (length === undefined || !Number.isInteger(length) || length < 0 || at + length * 4 > end) {
      throw new Error('Drawing geometry cut short.')
    }
    const array = float
      ? new Float32Array(bytes.buffer, at, length)
      : new Uint32Array(bytes.buffer, at, length)
    at += length * 4
    return array
  }
  const handles =
    version === 1
      ? GeometryHandles.of(header.handles ?? [])
      : new GeometryHandles(
          sums(read(header.lengths?.handleNumbers, false) as Uint32Array),
          new Map(Array.isArray(header.otherHandles) ? header.otherHandles : []),
        )
  const arrays = {} as Record<ArrayName, Float32Array | Uint32Array>
  for (const { name, float } of GEOMETRY_ARRAYS) arrays[name] = read(header.lengths?.[name], float)
  return {
    origin: header.origin,
    bounds: header.bounds,
    handles,
    colours: header.colours,
    ...(arrays as Pick<DrawingGeometry, ArrayName>),
  }
}

const align4 = (n: number) => Math.ceil(n / 4) * 4

/** Each number less the one before it, modulo 2^32 (the first less 0). */
function differences(numbers: Uint32Array): Uint32Array {
  const out = new Uint32Array(numbers.length)
  for (let i = 0; i < numbers.length; i++) out[i] = numbers[i] - (i > 0 ? numbers[i - 1] : 0)
  return out
}

/** The running sums of `differences`, modulo 2^32: the numbers it was made from. */
function sums(differences: Uint32Array): Uint32Array {
  const out = new Uint32Array(differences.length)
  let sum = 0
  for (let i = 0; i < differences.length; i++) {
    sum = (sum + differences[i]) >>> 0
    out[i] = sum
  }
  return out
}
