import { billGroups } from '../bill-groups.ts'
import {
  type BillBreakdownRow,
  type BillLine,
  BOQ_SCHEMA_VERSION,
  type Boq,
  type BoqReference,
  type BoqUnits,
} from '../boq.ts'

/*
 * BOQs as result.json holds them (contract/boq.ts), for the app's tests and the server's: a bill
 * line, a model-space reference, and two bills of metric drawings (drawn in millimetres, billed in
 * metres). Each call gives a fresh object; `overrides` replaces whole top-level fields.
 */

const millimetres = (): BoqUnits => ({ code: 4, name: 'millimetres', length: 'mm', area: 'mm²' })

function billedInMetres(drawing: BoqUnits): Boq['units'] {
  return {
    drawing,
    stated: null,
    system: 'metric',
    length: 'm',
    area: 'm²',
    lengthFactor: 0.001,
    areaFactor: 0.000001,
  }
}

/** A bill line; its quantity is its breakdown's sum unless given. */
export function billLine(
  line: Partial<Omit<BillLine, 'breakdown'>> & { breakdown?: Partial<BillBreakdownRow>[] },
): BillLine {
  const kind = line.kind ?? 'count'
  const breakdown = (line.breakdown ?? [{}]).map((row) => ({
    label: `layer ${row.layer ?? '0'}`,
    layer: '0',
    count: row.quantity ?? 1,
    quantity: row.count ?? 1,
    handles: [],
    ...row,
  }))
  return {
    ref: 'A1',
    kind,
    description: 'Item',
    quantity: breakdown.reduce((sum, row) => sum + row.quantity, 0),
    unit: kind === 'count' ? 'nr' : kind === 'length' ? 'm' : 'm²',
    ...line,
    breakdown,
  }
}

/**
 * A bill like example_2018.dwg's: two block lines, a linework line and an area line, no
 * warnings.
 */
export function exampleBoq(overrides: Partial<Boq> = {}): Boq {
  const drawing = millimetres()
  return {
    schema: 'boq',
    version: BOQ_SCHEMA_VERSION,
    source: {
      fileName: 'plan.dwg',
      fileBytes: 149_218,
      format: 'dwg',
      version: 'AC1032',
      release: 'AutoCAD 2018',
      units: drawing,
      entityCounts: { INSERT: 10, LINE: 8, ARC: 1, LWPOLYLINE: 4 },
      titleBlock: null,
    },
    units: billedInMetres(drawing),
    bill: [
      billLine({
        ref: 'A1',
        description: 'bloko',
        block: 'bloko',
        breakdown: [
          {
            label: 'layer Tavolo 3',
            layer: 'Tavolo 3',
            count: 2,
            quantity: 2,
            handles: ['2A1', '2A2'],
          },
        ],
      }),
      billLine({
        ref: 'A2',
        description: 'CIRKLO_PUNKTOJ',
        block: 'CIRKLO_PUNKTOJ',
        breakdown: [
          {
            label: 'layer Tavolo 3',
            layer: 'Tavolo 3',
            count: 8,
            quantity: 8,
            handles: ['3B1', '3B2', '3B3', '3B4', '3B5', '3B6', '3B7', '3B8'],
          },
        ],
      }),
      billLine({
        ref: 'B1',
        kind: 'length',
        description: 'Linework on layer Tavolo 2',
        layer: 'Tavolo 2',
        breakdown: [
          {
            label: 'arcs',
            layer: 'Tavolo 2',
            kind: 'arc',
            count: 1,
            quantity: 3.078858,
            handles: ['4C1'],
          },
          {
            label: 'polylines',
            layer: 'Tavolo 2',
            kind: 'polyline',
            count: 4,
            quantity: 9.562834,
            handles: ['4C2', '4C3', '4C4', '4C5'],
          },
        ],
      }),
      billLine({
        ref: 'C1',
        kind: 'area',
        description: 'Area on layer Tavolo 2',
        layer: 'Tavolo 2',
        breakdown: [
          {
            label: 'closed polylines (not filled by a hatch)',
            layer: 'Tavolo 2',
            kind: 'closed polyline',
            count: 4,
            quantity: 1.261751,
            handles: ['4C2', '4C3', '4C4', '4C5'],
          },
        ],
      }),
    ],
    warnings: [],
    notMeasured: [
      { type: 'TEXT', count: 2, reason: 'text: no quantity' },
      { type: 'DIMENSION_LINEAR', count: 4, reason: 'annotation: no quantity' },
    ],
    xrefs: [],
    blocks: [
      { block: 'bloko', layer: 'Tavolo 3', count: 2, nested: 0 },
      { block: 'CIRKLO_PUNKTOJ', layer: 'Tavolo 3', count: 8, nested: 0 },
    ],
    references: [],
    referencesCapped: false,
    attributeTags: [],
    propertyNames: [],
    lengths: [
      { layer: 'Tavolo 2', kind: 'arc', style: null, count: 1, length: 3078.858 },
      { layer: 'Tavolo 2', kind: 'polyline', style: null, count: 4, length: 9562.834 },
    ],
    areas: [
      {
        layer: 'Tavolo 2',
        closedPolylines: 4,
        closedPolylineArea: 1_261_750.85,
        hatches: 0,
        hatchArea: 0,
        filledByHatch: 0,
        net: 1_261_750.85,
      },
    ],
    ...overrides,
  }
}

/**
 * A small floor plan with a little of everything the bill's views and files show: counts split by
 * visibility, nested blocks, multilines, a hatch that fills an outline, negative coordinates,
 * things not measured, an attached drawing, a title block.
 */
export function floorPlanBoq(overrides: Partial<Boq> = {}): Boq {
  const drawing = millimetres()
  return {
    schema: 'boq',
    version: BOQ_SCHEMA_VERSION,
    source: {
      fileName: 'plan.dwg',
      fileBytes: 123_456,
      format: 'dwg',
      version: 'AC1032',
      release: 'AutoCAD 2018',
      units: drawing,
      entityCounts: { HATCH: 1, INSERT: 5, LINE: 4, LWPOLYLINE: 2, MLINE: 1, SOLID: 3 },
      titleBlock: {
        block: 'TITLEBLOCK',
        attributes: { TITLE: 'Ground floor', DWGNO: 'A-101', SCALE: '1:100' },
      },
    },
    units: billedInMetres(drawing),
    bill: [
      countLine('A1', 'DOOR', 11, { layer: 'Doors', handles: ['1F', '20'] }),
      countLine('A2', 'WINDOW', 2, { layer: 'Windows', handles: ['21'] }, { visibility: 'Open' }),
      countLine('A3', 'CHAIR', 6, { layer: 'Rooms', handles: ['22'], nested: 6 }),
      lengthLine('B1', 'Walls', 25_123.456789012344, 'line', ['30', '31']),
      lengthLine('B2', 'Partitions', 4_000, 'multiline', ['32']),
      areaLine('C1', 'Slabs', 400_000_000, ['40']),
    ],
    warnings: ['This drawing references another drawing (SITE): its content is not in this bill.'],
    notMeasured: [
      { type: '*X2', count: 1, reason: 'anonymous block (an old release’s hatch or dimension)' },
      { type: 'SOLID', count: 3, reason: '2D solids have no length or area measured here' },
    ],
    xrefs: [
      {
        name: 'SITE',
        path: '..\\site\\site.dwg',
        overlay: false,
        placed: [{ handle: '2A', layer: 'Xref', x: 100, y: -200.5 }],
      },
    ],
    blocks: [
      { block: 'CHAIR', layer: 'Rooms', count: 6, nested: 6 },
      { block: 'DOOR', layer: 'Doors', count: 11, nested: 0 },
      { block: 'ROOM', layer: 'Rooms', count: 3, nested: 0 },
      { block: 'WINDOW', layer: 'Windows', count: 2, nested: 0 },
    ],
    references: [
      reference(
        { handle: '1F', block: 'DOOR', layer: 'Doors', x: 1234.5678, y: -250.125 },
        {
          attributes: { TYPE: 'D1', FIRE: 'EI30' },
        },
      ),
      reference(
        { handle: '20', block: 'DOOR', layer: 'Doors', x: -0.001, y: 0 },
        {
          count: 6,
          attributes: { TYPE: 'D2' },
        },
      ),
      reference(
        { handle: '21', block: 'WINDOW', layer: 'Windows', x: 10, y: 20 },
        {
          definition: '*U7',
          properties: { visibility: 'Open' },
        },
      ),
      reference(
        { handle: '22', block: 'ROOM', layer: 'Rooms', x: 5000, y: 5000 },
        {
          nested: [
            { block: 'CHAIR', count: 4 },
            { block: 'TABLE', count: 1 },
          ],
        },
      ),
    ],
    referencesCapped: false,
    attributeTags: ['TYPE', 'FIRE'],
    propertyNames: ['visibility'],
    lengths: [
      { layer: 'Partitions', kind: 'multiline', style: 'STANDARD', count: 1, length: 4_000 },
      { layer: 'Walls', kind: 'line', style: null, count: 4, length: 25_123.456789012344 },
    ],
    areas: [
      {
        layer: 'Slabs',
        closedPolylines: 1,
        closedPolylineArea: 400_000_000,
        hatches: 1,
        hatchArea: 400_000_000,
        filledByHatch: 1,
        net: 400_000_000,
      },
    ],
    ...overrides,
  }
}

/** A model-space reference; `more` sets what differs from a plain one. */
export function reference(
  at: Pick<BoqReference, 'handle' | 'block' | 'layer' | 'x' | 'y'>,
  more: Partial<BoqReference> = {},
): BoqReference {
  return {
    definition: at.block,
    count: 1,
    attributes: {},
    properties: {},
    nested: [],
    ...at,
    ...more,
  }
}

function countLine(
  ref: string,
  block: string,
  count: number,
  on: { layer: string; handles: string[]; nested?: number },
  values?: Record<string, string>,
): BillLine {
  const description = values
    ? `${block} (${Object.entries(values)
        .map(([tag, value]) => `${tag}: ${value}`)
        .join(', ')})`
    : block
  return {
    ref,
    kind: 'count',
    description,
    quantity: count,
    unit: 'nr',
    block,
    ...(values ? { values } : {}),
    breakdown: [
      {
        label: `layer ${on.layer}`,
        layer: on.layer,
        nested: on.nested ?? 0,
        count,
        quantity: count,
        handles: on.handles,
      },
    ],
  }
}

function lengthLine(
  ref: string,
  layer: string,
  millimetres: number,
  kind: string,
  handles: string[],
): BillLine {
  const metres = millimetres * 0.001
  return {
    ref,
    kind: 'length',
    description: `Linework on layer ${layer}`,
    quantity: metres,
    unit: 'm',
    layer,
    breakdown: [{ label: kind, layer, kind, count: handles.length, quantity: metres, handles }],
  }
}

function areaLine(ref: string, layer: string, squareMillimetres: number, handles: string[]) {
  const squareMetres = squareMillimetres * 0.000001
  const line: BillLine = {
    ref,
    kind: 'area',
    description: `Area on layer ${layer}`,
    quantity: squareMetres,
    unit: 'm²',
    layer,
    breakdown: [
      {
        label: 'hatches',
        layer,
        kind: 'hatch',
        count: handles.length,
        quantity: squareMetres,
        handles,
      },
    ],
  }
  return line
}

/**
 * `exampleBoq()` with `count` pasted blocks (AutoCAD's `A$C…`) after its own blocks, one placed
 * each (the first twice), and the bill's groups made of them as the engine makes them.
 */
export function pastedBlocksBoq(count = 3): Boq {
  const boq = exampleBoq()
  const pasted = Array.from({ length: count }, (_, i) => {
    const block = `A$C0029482${i.toString(16).toUpperCase()}`
    const placed = i === 0 ? 2 : 1
    return billLine({
      ref: `A${i + 3}`,
      description: block,
      block,
      breakdown: [
        {
          label: 'layer 0',
          layer: '0',
          count: placed,
          quantity: placed,
          handles: Array.from({ length: placed }, (_, n) => `P${i}${n}`),
        },
      ],
    })
  })
  const counts = boq.bill.filter((line) => line.kind === 'count')
  const bill = [...counts, ...pasted, ...boq.bill.filter((line) => line.kind !== 'count')]
  return { ...boq, bill, groups: billGroups(bill) }
}

/**
 * A flat measured by room (its project's locations: A-AREA, names from the text inside): a
 * kitchen (Z1, 20 m²) and a living room (Z2, 30 m²); four chairs, one in the kitchen, two in the
 * living room and one outside; a 12 m pipe, 2 m of it in the kitchen, 6 m in the living room and
 * the rest outside. Every line's parts by zone add up to it.
 */
export function zonedBoq(overrides: Partial<Boq> = {}): Boq {
  const drawing = millimetres()
  const chair = (handle: string, x: number, zone: string | null) =>
    reference({ handle, block: 'CHAIR', layer: 'Furniture', x, y: 1000 }, { zone })
  const pipe = [
    { zone: 'Z1', quantity: 2 },
    { zone: 'Z2', quantity: 6 },
    { zone: null, quantity: 4 },
  ]
  const chairs = [
    { zone: 'Z1', quantity: 1 },
    { zone: 'Z2', quantity: 2 },
    { zone: null, quantity: 1 },
  ]
  return {
    ...floorPlanBoq(),
    source: {
      ...floorPlanBoq().source,
      entityCounts: { INSERT: 4, LINE: 1, LWPOLYLINE: 2, TEXT: 2 },
    },
    units: billedInMetres(drawing),
    bill: [
      {
        ...countLine('A1', 'CHAIR', 4, { layer: 'Furniture', handles: ['C1', 'C2', 'C3', 'C4'] }),
        byZone: chairs,
      },
      {
        ...lengthLine('B1', 'Pipes', 12_000, 'line', ['P1']),
        byZone: pipe,
      },
    ].map((line) => ({
      ...line,
      breakdown: line.breakdown.map((row) => ({
        ...row,
        byZone: line.byZone,
        ...(line.kind === 'length' ? { zones: [pipe] } : {}),
      })),
    })),
    warnings: [],
    notMeasured: [],
    xrefs: [],
    blocks: [{ block: 'CHAIR', layer: 'Furniture', count: 4, nested: 0 }],
    references: [
      chair('C1', 1000, 'Z1'),
      chair('C2', 6000, 'Z2'),
      chair('C3', 8000, 'Z2'),
      chair('C4', 20_000, null),
    ],
    attributeTags: [],
    propertyNames: [],
    lengths: [{ layer: 'Pipes', kind: 'line', style: null, count: 1, length: 12_000 }],
    areas: [
      {
        layer: 'A-AREA',
        closedPolylines: 2,
        closedPolylineArea: 50_000_000,
        hatches: 0,
        hatchArea: 0,
        filledByHatch: 0,
        net: 50_000_000,
      },
    ],
    zones: [
      {
        id: 'Z1',
        name: 'Kitchen',
        path: 'Kitchen',
        parent: null,
        layer: 'A-AREA',
        handle: 'R1',
        area: 20,
        perimeter: 18,
        label: { source: 'text', handle: 'T1' },
      },
      {
        id: 'Z2',
        name: 'Living',
        path: 'Living',
        parent: null,
        layer: 'A-AREA',
        handle: 'R2',
        area: 30,
        perimeter: 22,
        label: { source: 'text', handle: 'T2' },
      },
    ],
    ...overrides,
  }
}
