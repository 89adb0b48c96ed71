import { describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { expectLinesAddUp, manyEntitiesDxf } from '../../testing/boq/locations.ts'
import { RulesError } from '../price/errors.ts'
import { extractBoq } from '../run/extract.ts'
import { compileLocations, readLocations } from './table.ts'

function boqOf(w: DxfWriter, locations: LocationRow[] = [{ layer: 'ROOMS', label: 'text' }]) {
  return extractBoq(
    { bytes: new TextEncoder().encode(w.toString()), fileName: 'plan.dxf', locations },
    null,
  )
}

function square(x: number, y: number, side: number) {
  return [
    { x, y },
    { x: x + side, y },
    { x: x + side, y: y + side },
    { x, y: y + side },
  ]
}

describe('a locations table', () => {
  it('refuses an unknown label source, an empty layer and a broken glob, naming the row', () => {
    const { problems } = compileLocations([
      { layer: 'A-AREA', label: 'text' },
      { layer: 'ROOMS', label: 'room' },
      { layer: '', label: 'layer' },
      { layer: 'A-\\', label: 'attribute:' },
      { layer: 'X', label: 'text', labelLayer: 'T\\' },
    ])
    expect(problems.map((p) => `row ${p.row}: ${p.message}`)).toEqual([
      "row 2: label 'room' is not text, attribute:TAG or layer",
      'row 3: layer is empty: say which layers hold the zones (a glob, e.g. A-AREA or *-SPACE)',
      "row 4: layer: 'A-\\' ends with an escape (\\)",
      "row 4: label 'attribute:' is not text, attribute:TAG or layer",
      "row 5: labelLayer: 'T\\' ends with an escape (\\)",
    ])
  })

  it('is read from CSV and JSON, and a wrong file says which row', async () => {
    const csv = new TextEncoder().encode(
      'layer,label,labelLayer\nA-AREA,text,A-TEXT\n*-SPACE,attribute:NAME,\n',
    )
    expect(await readLocations(csv, 'csv')).toEqual([
      { layer: 'A-AREA', label: 'text', labelLayer: 'A-TEXT' },
      { layer: '*-SPACE', label: 'attribute:NAME' },
    ])
    const json = new TextEncoder().encode(
      JSON.stringify({ locations: [{ layer: 'A', label: 'name' }] }),
    )
    await expect(readLocations(json, 'json')).rejects.toThrow(
      new RulesError([{ row: 1, message: "label 'name' is not text, attribute:TAG or layer" }]),
    )
  })

  it('refuses a table past its bound', () => {
    const rows = Array.from({ length: 1001 }, () => ({ layer: 'A', label: 'text' }))
    expect(compileLocations(rows).problems[0].message).toBe(
      'the table has 1,001 rows; at most 1,000 are taken',
    )
  })
})

describe('zones from bad input', () => {
  it('warns of open outlines, self-crossing ones, overlaps, unnamed and same-named zones', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.lwpolyline(to, owner, 'ROOMS', square(0, 0, 10), false)
    w.lwpolyline(to, owner, 'ROOMS', square(100, 0, 10), true)
    w.lwpolyline(to, owner, 'ROOMS', square(105, 0, 10), true)
    w.entity(to, owner, 'T', 'TEXT', 'AcDbText', [10, 101, 20, 1, 30, 0, 40, 1, 1, 'Store'])
    w.entity(to, owner, 'T', 'TEXT', 'AcDbText', [10, 114, 20, 9, 30, 0, 40, 1, 1, 'Store'])
    // A bow tie: crosses itself.
    w.lwpolyline(
      to,
      owner,
      'ROOMS',
      [
        { x: 200, y: 0 },
        { x: 210, y: 10 },
        { x: 210, y: 0 },
        { x: 200, y: 10 },
      ],
      true,
    )
    w.lwpolyline(to, owner, 'ROOMS', square(300, 0, 10), true)
    w.insert(to, owner, 'Taps', 'TAP', [107, 5])
    w.block('TAP', (t, o) => w.line(t, o, '0', [0, 0], [1, 0]))
    w.line(to, owner, 'Pipes', [0, 5], [400, 5])
    const boq = boqOf(w)
    expect(boq.zones?.map((z) => z.path)).toEqual([
      'Store',
      'Store (2)',
      'Unnamed zone 1',
      'Unnamed zone 2',
    ])
    expect(boq.warnings).toEqual(
      expect.arrayContaining([
        '1 outline on zone layer ROOMS is not closed: not a zone.',
        expect.stringMatching(/^A zone outline crosses itself \(entity [0-9A-F]+ on layer ROOMS\)/),
        '2 zones have no label inside: named Unnamed zone 1…2.',
        expect.stringMatching(/^Zones of the same name at the same place \(Store\)/),
        expect.stringMatching(/^Zones of the same level overlap \(Store and Store \(2\)\)/),
      ]),
    )
    // The tap in the overlap goes to the first of the two, never to both.
    const tap = boq.bill.find((l) => l.block === 'TAP')
    expect(tap?.byZone).toEqual([{ zone: boq.zones?.[0].id, quantity: 1 }])
    expectLinesAddUp(boq)
  })

  it('takes 10,000 zones', () => {
    const w = new DxfWriter()
    const text = manyEntitiesDxf(w, 100, (i, to, owner) => {
      for (let j = 0; j < 100; j++) {
        w.lwpolyline(to, owner, 'ROOMS', square(i * 10, j * 10, 10), true)
        w.entity(to, owner, 'T', 'TEXT', 'AcDbText', [
          10,
          i * 10 + 5,
          20,
          j * 10 + 5,
          30,
          0,
          40,
          1,
          1,
          `R${i}.${j}`,
        ])
      }
      if (i === 0) w.line(to, owner, 'Pipes', [0, 5], [1000, 995])
    })
    const locations = [{ layer: 'ROOMS', label: 'text' }]
    const boq = extractBoq(
      { bytes: new TextEncoder().encode(text), fileName: 'many.dxf', locations },
      null,
    )
    expect(boq.zones?.length).toBe(10_000)
    expect(new Set(boq.zones?.map((z) => z.name)).size).toBe(10_000)
    expectLinesAddUp(boq)
    const pipe = boq.bill.find((l) => l.layer === 'Pipes')
    expect(pipe?.byZone?.some((p) => p.zone === null)).toBe(false)
  })
})
