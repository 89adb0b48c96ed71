/**
 * Writes ASCII DXF (AC1015) of known content for tests: tables, block definitions, model and
 * paper space entities, attached drawings (xrefs), and the objects AutoCAD keeps for a dynamic
 * block's reference, with the group codes AutoCAD writes.
 */

type P = [number, number] | [number, number, number]
type Pairs = (string | number)[]

export type Bulged = { x: number; y: number; bulge?: number }
export type HatchPath =
  | { polyline: Bulged[] }
  | {
      edges: (
        | { line: [P, P] }
        | { arc: { center: P; radius: number; start: number; end: number; ccw?: boolean } }
        | {
            ellipse: {
              center: P
              major: P
              ratio: number
              start: number
              end: number
              ccw?: boolean
            }
          }
      )[]
    }

/** What AutoCAD keeps in a dynamic block reference's extension dictionary. */
export type Representation = {
  /** The dynamic block it is a copy of (AcDbRepData's ACDB_BLOCKREPRESENTATION_DATA). */
  block?: string
  /** Its visibility state (AppDataCache → ACAD_ENHANCEDBLOCKDATA XRECORDs). */
  visibility?: string
}

/** A layer's look in the LAYER table. */
export type LayerStyle = {
  /** Colour index (1–255); 7 when not given. */
  colour?: number
  /** True colour (0xRRGGBB), written as group 420 beside the index. */
  trueColour?: number
  /** Turned off: its colour index written negative. */
  off?: boolean
  frozen?: boolean
}

/** An entity's own colour: an index (0 by block, 256 by layer) or a true colour (0xRRGGBB). */
export type EntityColour = number | { trueColour: number }

export type InsertOptions = {
  representation?: Representation
  /** false: the ATTRIBs carry no owner handle (330), as many libraries write them. */
  attributeOwners?: boolean
}

export class DxfWriter {
  private handle = 0x100
  private readonly layers = new Set<string>(['0'])
  private readonly layerStyles = new Map<string, LayerStyle>()
  /** The colour `withColour` gives the entities it writes. */
  private colour: EntityColour | undefined
  private readonly records: { name: string; handle: string; dynamicOf?: string }[] = []
  private readonly blocks: {
    name: string
    record: string
    body: Pairs
    flags?: number
    path?: string
    base?: P
  }[] = []
  private readonly model: Pairs = []
  private readonly paper: Pairs = []
  private readonly objects: Pairs = []
  readonly modelSpace: string
  readonly paperSpace: string
  insunits = 0

  constructor() {
    this.modelSpace = this.record('*Model_Space')
    this.paperSpace = this.record('*Paper_Space')
  }

  private next(): string {
    this.handle += 1
    return this.handle.toString(16).toUpperCase()
  }

  private record(name: string, dynamicOf?: string): string {
    const handle = this.next()
    this.records.push({ name, handle, dynamicOf })
    return handle
  }

  /** Defines a block; `fill` adds its entities (use the `in` target it is given). */
  block(
    name: string,
    fill: (target: Pairs, owner: string) => void = () => {},
    dynamicOf?: string,
  ): void {
    const real = dynamicOf ? this.records.find((r) => r.name === dynamicOf)?.handle : undefined
    const record = this.record(name, real)
    const body: Pairs = []
    fill(body, record)
    this.blocks.push({ name, record, body })
  }

  /** Defines a block whose base point is `base` (the point its references place at theirs). */
  blockAt(name: string, base: P, fill: (target: Pairs, owner: string) => void): void {
    this.block(name, fill)
    const written = this.blocks[this.blocks.length - 1]
    written.base = base
  }

  /** Defines a layer's colour and state (a layer only used by entities is colour 7, on). */
  layer(name: string, style: LayerStyle): void {
    this.layers.add(name)
    this.layerStyles.set(name, style)
  }

  /** Writes what `write` writes with this colour of their own (group 62, or 420). */
  withColour<T>(colour: EntityColour, write: () => T): T {
    this.colour = colour
    try {
      return write()
    } finally {
      this.colour = undefined
    }
  }

  /** Defines an attached drawing: a block with the xref flag (4; overlay 8) and the file's path. */
  xref(name: string, path: string, overlay = false): void {
    const record = this.record(name)
    this.blocks.push({ name, record, body: [], flags: 4 | (overlay ? 8 : 0), path })
  }

  private recordHandle(name: string): string {
    const record = this.records.find((r) => r.name === name)
    if (!record) throw new Error(`no block ${name}`)
    return record.handle
  }

  target(space: 'model' | 'paper'): { to: Pairs; owner: string } {
    return space === 'model'
      ? { to: this.model, owner: this.modelSpace }
      : { to: this.paper, owner: this.paperSpace }
  }

  private head(
    to: Pairs,
    type: string,
    owner: string,
    layer: string,
    subclass: string,
    xdict?: string,
  ): string {
    this.layers.add(layer)
    const handle = this.next()
    to.push(0, type, 5, handle)
    if (xdict) to.push(102, '{ACAD_XDICTIONARY', 360, xdict, 102, '}')
    if (owner) to.push(330, owner)
    to.push(100, 'AcDbEntity', 8, layer)
    if (typeof this.colour === 'number') to.push(62, this.colour)
    else if (this.colour) to.push(62, 256, 420, this.colour.trueColour)
    to.push(100, subclass)
    return handle
  }

  /** Any entity: its head, then `pairs` as they are (for types the writer has no method for). */
  entity(
    to: Pairs,
    owner: string,
    layer: string,
    type: string,
    subclass: string,
    pairs: Pairs,
  ): string {
    const handle = this.head(to, type, owner, layer, subclass)
    to.push(...pairs)
    return handle
  }

  line(to: Pairs, owner: string, layer: string, a: P, b: P): string {
    const handle = this.head(to, 'LINE', owner, layer, 'AcDbLine')
    to.push(10, a[0], 20, a[1], 30, a[2] ?? 0, 11, b[0], 21, b[1], 31, b[2] ?? 0)
    return handle
  }

  circle(to: Pairs, owner: string, layer: string, c: P, r: number): string {
    const handle = this.head(to, 'CIRCLE', owner, layer, 'AcDbCircle')
    to.push(10, c[0], 20, c[1], 30, 0, 40, r)
    return handle
  }

  arc(
    to: Pairs,
    owner: string,
    layer: string,
    c: P,
    r: number,
    startDeg: number,
    endDeg: number,
  ): string {
    const handle = this.head(to, 'ARC', owner, layer, 'AcDbCircle')
    to.push(10, c[0], 20, c[1], 30, 0, 40, r, 100, 'AcDbArc', 50, startDeg, 51, endDeg)
    return handle
  }

  ellipse(
    to: Pairs,
    owner: string,
    layer: string,
    c: P,
    major: P,
    ratio: number,
    start = 0,
    end = 2 * Math.PI,
  ): string {
    const handle = this.head(to, 'ELLIPSE', owner, layer, 'AcDbEllipse')
    to.push(
      10,
      c[0],
      20,
      c[1],
      30,
      0,
      11,
      major[0],
      21,
      major[1],
      31,
      0,
      210,
      0,
      220,
      0,
      230,
      1,
      40,
      ratio,
      41,
      start,
      42,
      end,
    )
    return handle
  }

  lwpolyline(to: Pairs, owner: string, layer: string, vertices: Bulged[], closed: boolean): string {
    const handle = this.head(to, 'LWPOLYLINE', owner, layer, 'AcDbPolyline')
    to.push(90, vertices.length, 70, closed ? 1 : 0, 43, 0)
    for (const v of vertices) {
      to.push(10, v.x, 20, v.y)
      if (v.bulge) to.push(42, v.bulge)
    }
    return handle
  }

  polyline(
    to: Pairs,
    owner: string,
    layer: string,
    vertices: (Bulged & { z?: number })[],
    closed: boolean,
    is3d: boolean,
  ): string {
    const handle = this.head(
      to,
      'POLYLINE',
      owner,
      layer,
      is3d ? 'AcDb3dPolyline' : 'AcDb2dPolyline',
    )
    to.push(66, 1, 10, 0, 20, 0, 30, 0, 70, (closed ? 1 : 0) | (is3d ? 8 : 0))
    for (const v of vertices) {
      this.head(to, 'VERTEX', handle, layer, 'AcDbVertex')
      to.push(100, is3d ? 'AcDb3dPolylineVertex' : 'AcDb2dVertex', 10, v.x, 20, v.y, 30, v.z ?? 0)
      if (v.bulge) to.push(42, v.bulge)
      to.push(70, is3d ? 32 : 0)
    }
    this.head(to, 'SEQEND', handle, layer, 'AcDbEntity')
    to.splice(to.length - 2, 2) // SEQEND has no subclass of its own
    return handle
  }

  spline(
    to: Pairs,
    owner: string,
    layer: string,
    degree: number,
    knots: number[],
    control: P[],
    weights?: number[],
  ): string {
    const handle = this.head(to, 'SPLINE', owner, layer, 'AcDbSpline')
    this.splineData(to, degree, knots, control, weights)
    return handle
  }

  /**
   * A helix: its path as a spline, then its axis, radius and turns (AcDbHelix): the axis from
   * `shape` (by default up the Z axis from the origin, starting at the first control point), or
   * none at all when `shape` is null.
   */
  helix(
    to: Pairs,
    owner: string,
    layer: string,
    degree: number,
    knots: number[],
    control: P[],
    shape: {
      radius: number
      turns: number
      turnHeight: number
      axisBase?: P
      start?: P
      axis?: P
    } | null,
  ): string {
    const handle = this.head(to, 'HELIX', owner, layer, 'AcDbSpline')
    this.splineData(to, degree, knots, control)
    if (!shape) return handle
    const base = shape.axisBase ?? [0, 0, 0]
    const start = shape.start ?? control[0]
    const axis = shape.axis ?? [0, 0, 1]
    to.push(100, 'AcDbHelix', 90, 32, 91, 2, 10, base[0], 20, base[1], 30, base[2] ?? 0)
    to.push(11, start[0], 21, start[1], 31, start[2] ?? 0)
    to.push(12, axis[0], 22, axis[1], 32, axis[2] ?? 0)
    to.push(40, shape.radius, 41, shape.turns, 42, shape.turnHeight, 290, 1, 280, 1)
    return handle
  }

  /** A multiline along `vertices` (style STANDARD's two elements, 1 apart). */
  mline(
    to: Pairs,
    owner: string,
    layer: string,
    vertices: P[],
    closed: boolean,
    style = 'STANDARD',
  ): string {
    const handle = this.head(to, 'MLINE', owner, layer, 'AcDbMline')
    const [first] = vertices
    to.push(2, style, 340, '0', 40, 1, 70, 0, 71, 1 | (closed ? 2 : 0), 72, vertices.length)
    to.push(73, 2, 10, first[0], 20, first[1], 30, first[2] ?? 0, 210, 0, 220, 0, 230, 1)
    vertices.forEach((v, i) => {
      const n = vertices[(i + 1) % vertices.length]
      const [dx, dy] = [n[0] - v[0], n[1] - v[1]]
      const d = Math.hypot(dx, dy) || 1
      to.push(11, v[0], 21, v[1], 31, v[2] ?? 0, 12, dx / d, 22, dy / d, 32, 0)
      to.push(13, -dy / d, 23, dx / d, 33, 0)
      for (const offset of [0.5, -0.5]) to.push(74, 2, 41, offset, 41, 0, 75, 0)
    })
    return handle
  }

  private splineData(
    to: Pairs,
    degree: number,
    knots: number[],
    control: P[],
    weights?: number[],
  ): void {
    to.push(
      210,
      0,
      220,
      0,
      230,
      1,
      70,
      8 | (weights ? 4 : 0),
      71,
      degree,
      72,
      knots.length,
      73,
      control.length,
      74,
      0,
    )
    to.push(42, 1e-10, 43, 1e-10)
    for (const k of knots) to.push(40, k)
    if (weights) for (const w of weights) to.push(41, w)
    for (const c of control) to.push(10, c[0], 20, c[1], 30, c[2] ?? 0)
  }

  insert(
    to: Pairs,
    owner: string,
    layer: string,
    block: string,
    at: P,
    attributes: Record<string, string> = {},
    grid?: { cols: number; rows: number },
    options: InsertOptions = {},
  ): string {
    const tags = Object.entries(attributes)
    const xdict = options.representation ? this.next() : undefined
    const handle = this.head(to, 'INSERT', owner, layer, 'AcDbBlockReference', xdict)
    if (xdict && options.representation) this.representation(xdict, handle, options.representation)
    if (tags.length) to.push(66, 1)
    to.push(2, block, 10, at[0], 20, at[1], 30, 0)
    if (grid) to.push(70, grid.cols, 71, grid.rows, 44, 10, 45, 10)
    const attributeOwner = options.attributeOwners === false ? '' : handle
    for (const [tag, value] of tags) {
      this.head(to, 'ATTRIB', attributeOwner, layer, 'AcDbText')
      to.push(10, at[0], 20, at[1], 30, 0, 40, 1, 1, value, 100, 'AcDbAttribute', 2, tag, 70, 0)
    }
    if (tags.length) {
      this.head(to, 'SEQEND', attributeOwner, layer, 'AcDbEntity')
      to.splice(to.length - 2, 2)
    }
    return handle
  }

  /**
   * A dynamic reference's extension dictionary as AutoCAD writes it: AcDbBlockRepresentation →
   * AcDbRepData (the defining block record) and AppDataCache → ACAD_ENHANCEDBLOCKDATA, one
   * XRECORD per parameter (a number-only one, then the visibility state's, which holds its name).
   */
  private representation(xdict: string, insert: string, rep: Representation): void {
    const [representation, repData, cache, enhanced, other, visibility] = [...Array(6)].map(() =>
      this.next(),
    )
    this.dictionary(xdict, insert, [['AcDbBlockRepresentation', representation]])
    const entries: [string, string][] = []
    if (rep.block) entries.push(['AcDbRepData', repData])
    if (rep.visibility !== undefined) entries.push(['AppDataCache', cache])
    this.dictionary(representation, xdict, entries)
    if (rep.block) {
      this.objects.push(0, 'ACDB_BLOCKREPRESENTATION_DATA', 5, repData)
      this.objects.push(102, '{ACAD_REACTORS', 330, representation, 102, '}', 330, representation)
      this.objects.push(100, 'AcDbBlockRepresentationData', 70, 1)
      this.objects.push(340, this.recordHandle(rep.block))
    }
    if (rep.visibility !== undefined) {
      this.dictionary(cache, representation, [['ACAD_ENHANCEDBLOCKDATA', enhanced]])
      this.dictionary(enhanced, cache, [
        ['1', other],
        ['46', visibility],
      ])
      this.xrecord(other, enhanced, [1071, 135625452, 70, 25, 70, 104, 10, -10, 20, -10, 30, 0])
      this.xrecord(visibility, enhanced, [1071, 184556386, 70, 25, 1, rep.visibility])
    }
  }

  private dictionary(handle: string, owner: string, entries: [string, string][]): void {
    this.objects.push(0, 'DICTIONARY', 5, handle)
    this.objects.push(102, '{ACAD_REACTORS', 330, owner, 102, '}', 330, owner)
    this.objects.push(100, 'AcDbDictionary', 280, 1, 281, 1)
    for (const [name, object] of entries) this.objects.push(3, name, 360, object)
  }

  private xrecord(handle: string, owner: string, data: Pairs): void {
    this.objects.push(0, 'XRECORD', 5, handle)
    this.objects.push(102, '{ACAD_REACTORS', 330, owner, 102, '}', 330, owner)
    this.objects.push(100, 'AcDbXrecord', 280, 1, ...data)
  }

  hatch(to: Pairs, owner: string, layer: string, paths: HatchPath[], style = 0): string {
    const handle = this.head(to, 'HATCH', owner, layer, 'AcDbHatch')
    to.push(10, 0, 20, 0, 30, 0, 210, 0, 220, 0, 230, 1, 2, 'SOLID', 70, 1, 71, 0, 91, paths.length)
    paths.forEach((path, i) => {
      if ('polyline' in path) {
        const bulged = path.polyline.some((v) => v.bulge)
        to.push(92, 2 | (i === 0 ? 1 : 0), 72, bulged ? 1 : 0, 73, 1, 93, path.polyline.length)
        for (const v of path.polyline) {
          to.push(10, v.x, 20, v.y)
          if (bulged) to.push(42, v.bulge ?? 0)
        }
      } else {
        to.push(92, i === 0 ? 1 : 0, 93, path.edges.length)
        for (const edge of path.edges) {
          if ('line' in edge)
            to.push(
              72,
              1,
              10,
              edge.line[0][0],
              20,
              edge.line[0][1],
              11,
              edge.line[1][0],
              21,
              edge.line[1][1],
            )
          else if ('arc' in edge) {
            const a = edge.arc
            to.push(
              72,
              2,
              10,
              a.center[0],
              20,
              a.center[1],
              40,
              a.radius,
              50,
              a.start,
              51,
              a.end,
              73,
              a.ccw === false ? 0 : 1,
            )
          } else {
            const e = edge.ellipse
            to.push(
              72,
              3,
              10,
              e.center[0],
              20,
              e.center[1],
              11,
              e.major[0],
              21,
              e.major[1],
              40,
              e.ratio,
              50,
              e.start,
              51,
              e.end,
              73,
              e.ccw === false ? 0 : 1,
            )
          }
        }
      }
      to.push(97, 0)
    })
    to.push(75, style, 76, 1, 98, 0)
    return handle
  }

  toString(): string {
    const out: Pairs = []
    out.push(
      0,
      'SECTION',
      2,
      'HEADER',
      9,
      '$ACADVER',
      1,
      'AC1015',
      9,
      '$INSUNITS',
      70,
      this.insunits,
      9,
      '$HANDSEED',
      5,
      'FFFF',
      0,
      'ENDSEC',
    )
    out.push(0, 'SECTION', 2, 'TABLES')
    out.push(0, 'TABLE', 2, 'LAYER', 5, '2', 330, '0', 100, 'AcDbSymbolTable', 70, this.layers.size)
    for (const name of this.layers) {
      const style = this.layerStyles.get(name) ?? {}
      const colour = style.colour ?? 7
      out.push(
        0,
        'LAYER',
        5,
        this.next(),
        330,
        '2',
        100,
        'AcDbSymbolTableRecord',
        100,
        'AcDbLayerTableRecord',
        2,
        name,
        70,
        style.frozen ? 1 : 0,
        62,
        style.off ? -colour : colour,
        6,
        'CONTINUOUS',
      )
      if (style.trueColour !== undefined) out.push(420, style.trueColour)
    }
    out.push(0, 'ENDTAB')
    out.push(
      0,
      'TABLE',
      2,
      'BLOCK_RECORD',
      5,
      '1',
      330,
      '0',
      100,
      'AcDbSymbolTable',
      70,
      this.records.length,
    )
    for (const r of this.records) {
      out.push(
        0,
        'BLOCK_RECORD',
        5,
        r.handle,
        330,
        '1',
        100,
        'AcDbSymbolTableRecord',
        100,
        'AcDbBlockTableRecord',
        2,
        r.name,
      )
      if (r.dynamicOf) out.push(1001, 'AcDbBlockRepBTag', 1070, 1, 1005, r.dynamicOf)
    }
    out.push(0, 'ENDTAB', 0, 'ENDSEC')
    out.push(0, 'SECTION', 2, 'BLOCKS')
    const all = [
      { name: '*Model_Space', record: this.modelSpace, body: [] as Pairs },
      { name: '*Paper_Space', record: this.paperSpace, body: [] as Pairs },
      ...this.blocks,
    ]
    for (const b of all) {
      out.push(
        0,
        'BLOCK',
        5,
        this.next(),
        330,
        b.record,
        100,
        'AcDbEntity',
        8,
        '0',
        100,
        'AcDbBlockBegin',
        2,
        b.name,
        70,
        b.flags ?? (b.name.startsWith('*U') ? 1 : 0),
        10,
        b.base?.[0] ?? 0,
        20,
        b.base?.[1] ?? 0,
        30,
        b.base?.[2] ?? 0,
        3,
        b.name,
        1,
        b.path ?? '',
      )
      out.push(...b.body)
      out.push(
        0,
        'ENDBLK',
        5,
        this.next(),
        330,
        b.record,
        100,
        'AcDbEntity',
        8,
        '0',
        100,
        'AcDbBlockEnd',
      )
    }
    out.push(0, 'ENDSEC')
    out.push(0, 'SECTION', 2, 'ENTITIES', ...this.model, ...this.paper, 0, 'ENDSEC')
    if (this.objects.length) out.push(0, 'SECTION', 2, 'OBJECTS', ...this.objects, 0, 'ENDSEC')
    out.push(0, 'EOF')
    const lines: string[] = []
    for (let i = 0; i < out.length; i += 2)
      lines.push(String(out[i]).padStart(3, ' '), String(out[i + 1]))
    return `${lines.join('\n')}\n`
  }
}
