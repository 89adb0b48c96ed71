import {
  type BillLine,
  BOQ_SCHEMA_VERSION,
  type Boq,
  type BoqReference,
  type BoqUnits,
} from '../../boq/model/schema.ts'

/**
 * A version-2 BOQ of a small metric drawing (millimetres, billed in metres), with a little of
 * everything the views show: counts split by visibility, nested blocks, multilines, a hatch that
 * fills an outline, negative coordinates, things not measured, an attached drawing. Each call
 * gives a fresh object; `overrides` replaces whole top-level fields.
 */
export function makeBoq(overrides: Partial<Boq> = {}): Boq {
  const drawing: BoqUnits = { code: 4, name: 'millimetres', length: 'mm', area: 'mm²' }
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
    units: {
      drawing,
      stated: null,
      system: 'metric',
      length: 'm',
      area: 'm²',
      lengthFactor: 0.001,
      areaFactor: 0.000001,
    },
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
