import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { fixturePath } from '../../testing/boq/fixtures.ts'
import { expectLinesAddUp } from '../../testing/boq/locations.ts'
import { xorshift } from '../../testing/boq/noise.ts'
import { extractBoq } from '../run/extract.ts'

const ROOMS: LocationRow[] = [{ layer: 'ROOM*', label: 'text' }]

/** A drawing of random rooms (some overlapping, some nested) and random pieces everywhere. */
function randomDrawing(seed: number): DxfWriter {
  const random = xorshift(seed)
  const at = (span: number) => Math.round(random() * span * 100) / 100
  const w = new DxfWriter()
  w.insunits = 6
  w.block('TAP', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
  const { to, owner } = w.target('model')
  for (let i = 0; i < 12; i++) {
    const [x, y] = [at(80), at(80)]
    const [width, height] = [5 + at(30), 5 + at(30)]
    const corners = [
      { x, y },
      { x: x + width, y, bulge: i % 3 === 0 ? 0.3 : 0 },
      { x: x + width, y: y + height },
      { x, y: y + height },
    ]
    if (i % 4 === 3) w.circle(to, owner, 'ROOMS', [x, y], width / 2)
    else w.lwpolyline(to, owner, 'ROOMS', corners, true)
    if (i % 2 === 0)
      w.entity(to, owner, 'TEXT', 'TEXT', 'AcDbText', [
        10,
        x + 1,
        20,
        y + 1,
        30,
        0,
        40,
        1,
        1,
        `Room ${i}`,
      ])
  }
  for (let i = 0; i < 40; i++) {
    w.line(to, owner, 'Pipes', [at(120), at(120)], [at(120), at(120)])
    w.insert(to, owner, 'Taps', 'TAP', [at(120), at(120)])
    w.arc(to, owner, 'Arcs', [at(120), at(120)], 1 + at(20), at(360), at(360))
    const [x, y] = [at(110), at(110)]
    w.lwpolyline(
      to,
      owner,
      'Slabs',
      [
        { x, y },
        { x: x + 3 + at(20), y, bulge: -0.4 },
        { x: x + 3 + at(20), y: y + 2 + at(10) },
        { x, y: y + 2 + at(10) },
      ],
      true,
    )
    if (i % 5 === 0) {
      const [cx, cy] = [at(100), at(100)]
      w.hatch(to, owner, 'Screed', [
        {
          polyline: [
            { x: cx, y: cy },
            { x: cx + 15, y: cy },
            { x: cx + 15, y: cy + 12 },
            { x: cx, y: cy + 12 },
          ],
        },
      ])
      w.ellipse(to, owner, 'Ellipses', [cx, cy], [6, 2], 0.5, 0, 2 * Math.PI)
    }
  }
  return w
}

describe('allocation adds up', () => {
  it('on random drawings: every line and row, by zone and unallocated, is its quantity', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const bytes = new TextEncoder().encode(randomDrawing(seed).toString())
      const boq = extractBoq({ bytes, fileName: 'random.dxf', locations: ROOMS }, null)
      expect(boq.zones?.length).toBe(12)
      expect(boq.bill.length).toBeGreaterThan(4)
      expectLinesAddUp(boq)
      // Zones hold some of it and leave some: a test that could not fail would not.
      const zoned = boq.bill.flatMap((line) => line.byZone ?? []).filter((p) => p.zone !== null)
      expect(zoned.length).toBeGreaterThan(0)
    }
  })

  const dir = mkdtempSync(join(tmpdir(), 'boq-locations-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.each(['example_2018.dxf', 'example_2000.dxf', 'sample_r14.dxf'])(
    'on the sample %s with a room layer drawn into it (ezdxf)',
    (name) => {
      const out = join(dir, name)
      // A grid of 3 × 3 rooms over the drawing's extents, each named by a text in it.
      const script = `
import sys, ezdxf
from ezdxf import bbox
doc = ezdxf.readfile(sys.argv[1])
msp = doc.modelspace()
box = bbox.extents(msp)
x0, y0, x1, y1 = box.extmin.x, box.extmin.y, box.extmax.x, box.extmax.y
dx, dy = (x1 - x0) / 3, (y1 - y0) / 3
doc.layers.add('A-AREA')
for i in range(3):
    for j in range(3):
        ax, ay = x0 + i * dx, y0 + j * dy
        msp.add_lwpolyline([(ax, ay), (ax + dx, ay), (ax + dx, ay + dy), (ax, ay + dy)], close=True, dxfattribs={'layer': 'A-AREA'})
        msp.add_text(f'Room {i}{j}', dxfattribs={'layer': 'A-AREA', 'insert': (ax + dx / 2, ay + dy / 2)})
doc.saveas(sys.argv[2])
`
      execFileSync('/usr/bin/python3', ['-c', script, fixturePath(name), out])
      const bytes = new Uint8Array(readFileSync(out))
      const boq = extractBoq(
        { bytes, fileName: name, locations: [{ layer: 'A-AREA', label: 'text' }] },
        null,
      )
      expect(boq.zones?.map((z) => z.name).sort()).toEqual(
        ['00', '01', '02', '10', '11', '12', '20', '21', '22'].map((n) => `Room ${n}`),
      )
      expectLinesAddUp(boq)
      const bytesWithout = new Uint8Array(readFileSync(fixturePath(name)))
      const without = extractBoq({ bytes: bytesWithout, fileName: name }, null)
      // The drawing's own lines are the same with locations (the room layer adds its own).
      for (const line of without.bill) {
        const same = boq.bill.find((l) => l.description === line.description)
        expect(same?.quantity).toBeCloseTo(line.quantity, 9)
        const inZones = (same?.byZone ?? []).filter((p) => p.zone !== null)
        expect(inZones.length, `${line.description} is placed in some room`).toBeGreaterThan(0)
      }
    },
  )
})
