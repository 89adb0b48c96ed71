import { describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { extractBoq, locatedBillOf, readDrawing } from '../run/extract.ts'

// The zones' problems by the row of the table each concerns, beside the bill's own warnings.

function located(w: DxfWriter, locations: LocationRow[]) {
  const bytes = new TextEncoder().encode(w.toString())
  const input = { bytes, fileName: 'plan.dxf', locations }
  return locatedBillOf(input, readDrawing(bytes, null, undefined, { picture: true }))
}

function square(x: number, y: number, side: number) {
  return [
    { x, y },
    { x: x + side, y },
    { x: x + side, y: y + side },
    { x, y: y + side },
  ]
}

function text(w: DxfWriter, to: (string | number)[], owner: string, layer: string, at: number[]) {
  return (words: string) =>
    w.entity(to, owner, layer, 'TEXT', 'AcDbText', [10, at[0], 20, at[1], 30, 0, 40, 1, 1, words])
}

/** Row 1 (ROOMS): a named room and an outline left open; row 2 (SPACES): a zone with no label. */
function twoRows() {
  const w = new DxfWriter()
  const { to, owner } = w.target('model')
  w.lwpolyline(to, owner, 'ROOMS', square(0, 0, 10), true)
  text(w, to, owner, 'T', [5, 5])('Kitchen')
  w.lwpolyline(to, owner, 'ROOMS', square(20, 0, 10), false)
  w.lwpolyline(to, owner, 'SPACES', square(40, 0, 10), true)
  return w
}

describe('the zones’ problems by row', () => {
  it('gives each row its own: the open outline to row 1, the unnamed zone to row 2', () => {
    const { boq, byRow } = located(twoRows(), [
      { layer: 'ROOMS', label: 'text' },
      { layer: 'SPACES', label: 'text' },
    ])
    expect(byRow?.problems).toEqual([
      {
        row: 1,
        kind: 'open',
        message: '1 outline on zone layer ROOMS is not closed: not a zone.',
      },
      {
        row: 2,
        kind: 'unnamed',
        message: '1 zone has no label inside: named Unnamed zone 1.',
      },
    ])
    // The bill says both, as it did; they are the ones the rows say again.
    expect(byRow?.detailed).toEqual([
      '1 outline on zone layer ROOMS is not closed: not a zone.',
      '1 zone has no label inside: named Unnamed zone 1.',
    ])
    for (const said of byRow?.detailed ?? []) expect(boq.warnings).toContain(said)
  })

  it('keeps the bill as an extraction writes it: its warnings, and nothing of the rows', () => {
    const locations = [
      { layer: 'ROOMS', label: 'text' },
      { layer: 'SPACES', label: 'text' },
    ]
    const bytes = new TextEncoder().encode(twoRows().toString())
    const extracted = extractBoq({ bytes, fileName: 'plan.dxf', locations }, null)
    const { boq } = located(twoRows(), locations)
    expect(JSON.stringify(boq)).toBe(JSON.stringify(extracted))
    expect(JSON.stringify(boq)).not.toContain('byRow')
  })

  it('tells each row of its self-crossing, same-named and overlapping zones', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.lwpolyline(to, owner, 'ROOMS', square(0, 0, 10), true)
    w.lwpolyline(to, owner, 'ROOMS', square(5, 0, 10), true)
    text(w, to, owner, 'T', [3, 5])('Store')
    text(w, to, owner, 'T', [14, 9])('Store')
    // A bow tie on row 2's layer, and a zone of row 2 overlapping one of row 1.
    const bowTie = [
      { x: 200, y: 0 },
      { x: 210, y: 10 },
      { x: 210, y: 0 },
      { x: 200, y: 10 },
    ]
    const tie = w.lwpolyline(to, owner, 'AREAS', bowTie, true)
    w.lwpolyline(to, owner, 'AREAS', square(-5, 0, 6), true)
    text(w, to, owner, 'T', [-4, 5])('Hall')
    text(w, to, owner, 'T', [201, 5])('Tie')
    const { byRow } = located(w, [
      { layer: 'ROOMS', label: 'text' },
      { layer: 'AREAS', label: 'text' },
    ])
    const of = (row: number) =>
      byRow?.problems.filter((p) => p.row === row).map((p) => [p.kind, p.message])
    expect(of(1)).toEqual([
      [
        'same-name',
        'Zones of the same name at the same place (Store) are kept apart by a number: Store (2)…',
      ],
      [
        'overlap',
        'Zones of the same level overlap (Store and Store (2), Store and Hall): what lies in both goes to the first in the drawing, never to both.',
      ],
    ])
    expect(of(2)).toEqual([
      [
        'crossing',
        `A zone outline crosses itself (entity ${tie} on layer AREAS): each is taken as the region the non-zero fill rule gives.`,
      ],
      [
        'overlap',
        'Zones of the same level overlap (Store and Hall): what lies in both goes to the first in the drawing, never to both.',
      ],
    ])
  })

  it('says why a row found nothing, and when its label layer holds no label', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.lwpolyline(to, owner, 'A-AREA', square(0, 0, 10), true)
    text(w, to, owner, 'A-TEXT', [5, 5])('Office')
    w.lwpolyline(to, owner, 'A-WALLS', square(20, 0, 10), false)
    w.block('TAG', (t, o) => w.line(t, o, '0', [0, 0], [1, 0]))
    w.insert(to, owner, 'A-TAGS', 'TAG', [5, 5], { NAME: 'Office' })
    const { byRow } = located(w, [
      { layer: 'A-AREA', label: 'text', labelLayer: 'NO-TEXT-*' },
      { layer: 'A-AREA', label: 'layer' },
      { layer: 'A-WALLS', label: 'text' },
      { layer: 'ROOMS', label: 'attribute:ROOM', labelLayer: 'A-TAGS' },
    ])
    expect(byRow?.problems.map((p) => [p.row, p.kind, p.message])).toEqual([
      [1, 'unnamed', '1 zone has no label inside: named Unnamed zone 1.'],
      [
        1,
        'label-layer',
        'No text is on a layer matching its label layer NO-TEXT-*: no zone of this row is named from it.',
      ],
      [
        2,
        'nothing',
        'Found no zone: its layers (A-AREA) go to row 1 above, the first row whose layer matches each.',
      ],
      [3, 'open', '1 outline on zone layer A-WALLS is not closed: not a zone.'],
      [3, 'nothing', 'Found no zone: no closed outline on its layers (A-WALLS).'],
      [
        4,
        'label-layer',
        'No block reference with attribute ROOM is on a layer matching its label layer A-TAGS: no zone of this row is named from it.',
      ],
      [4, 'nothing', 'Found no zone: no layer of the drawing matches ROOMS.'],
    ])
  })

  it('has nothing by row without locations', () => {
    const bytes = new TextEncoder().encode(twoRows().toString())
    const input = { bytes, fileName: 'plan.dxf' }
    expect(locatedBillOf(input, readDrawing(bytes, null)).byRow).toBeNull()
  })
})
