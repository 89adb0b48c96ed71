/**
 * Writes ASCII DXF (AC1015) of known content for tests: tables, block definitions, model and
 * paper space entities, with the group codes AutoCAD writes.
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

export class DxfWriter {
  private handle = 0x100
  private readonly layers = new Set<string>(['0'])
  private readonly records: { name: string; handle: string; dynamicOf?: string }[] = []
  private readonly blocks: { name: string; record: string; body: Pairs }[] = []
  private readonly model: Pairs = []
  private readonly paper: Pairs = []
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

  target(space: 'model' | 'paper'): { to: Pairs; owner: string } {
    return space === 'model'
      ? { to: this.model, owner: this.modelSpace }
      : { to: this.paper, owner: this.paperSpace }
  }

  private head(to: Pairs, type: string, owner: string, layer: string, subclass: string): string {
    this.layers.add(layer)
    const handle = this.next()
    to.push(0, type, 5, handle, 330, owner, 100, 'AcDbEntity', 8, layer, 100, subclass)
    return handle
  }

  line(to: Pairs, owner: string, layer: string, a: P, b: P): void {
    this.head(to, 'LINE', owner, layer, 'AcDbLine')
    to.push(10, a[0], 20, a[1], 30, a[2] ?? 0, 11, b[0], 21, b[1], 31, b[2] ?? 0)
  }

  circle(to: Pairs, owner: string, layer: string, c: P, r: number): void {
    this.head(to, 'CIRCLE', owner, layer, 'AcDbCircle')
    to.push(10, c[0], 20, c[1], 30, 0, 40, r)
  }

  arc(
    to: Pairs,
    owner: string,
    layer: string,
    c: P,
    r: number,
    startDeg: number,
    endDeg: number,
  ): void {
    this.head(to, 'ARC', owner, layer, 'AcDbCircle')
    to.push(10, c[0], 20, c[1], 30, 0, 40, r, 100, 'AcDbArc', 50, startDeg, 51, endDeg)
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
  ): void {
    this.head(to, 'ELLIPSE', owner, layer, 'AcDbEllipse')
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
  ): void {
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
  }

  spline(
    to: Pairs,
    owner: string,
    layer: string,
    degree: number,
    knots: number[],
    control: P[],
    weights?: number[],
  ): void {
    this.head(to, 'SPLINE', owner, layer, 'AcDbSpline')
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
  ): void {
    const tags = Object.entries(attributes)
    const handle = this.head(to, 'INSERT', owner, layer, 'AcDbBlockReference')
    if (tags.length) to.push(66, 1)
    to.push(2, block, 10, at[0], 20, at[1], 30, 0)
    if (grid) to.push(70, grid.cols, 71, grid.rows, 44, 10, 45, 10)
    for (const [tag, value] of tags) {
      this.head(to, 'ATTRIB', handle, layer, 'AcDbText')
      to.push(10, at[0], 20, at[1], 30, 0, 40, 1, 1, value, 100, 'AcDbAttribute', 2, tag, 70, 0)
    }
    if (tags.length) {
      this.head(to, 'SEQEND', handle, layer, 'AcDbEntity')
      to.splice(to.length - 2, 2)
    }
  }

  hatch(to: Pairs, owner: string, layer: string, paths: HatchPath[], style = 0): void {
    this.head(to, 'HATCH', owner, layer, 'AcDbHatch')
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
        0,
        62,
        7,
        6,
        'CONTINUOUS',
      )
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
        b.name.startsWith('*U') ? 1 : 0,
        10,
        0,
        20,
        0,
        30,
        0,
        3,
        b.name,
        1,
        '',
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
    out.push(0, 'SECTION', 2, 'ENTITIES', ...this.model, ...this.paper, 0, 'ENDSEC', 0, 'EOF')
    const lines: string[] = []
    for (let i = 0; i < out.length; i += 2)
      lines.push(String(out[i]).padStart(3, ' '), String(out[i + 1]))
    return `${lines.join('\n')}\n`
  }
}
