import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { main } from './cli.ts'

/** `boq <args>` typed in `cwd`, in this process: its exit code and what it printed. */
async function run(args: string[], cwd: string) {
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    cwd,
    env: process.env,
    stdout: { write: (chunk) => (stdout += String(chunk)) },
    stderr: { write: (text) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

/** Two rooms in millimetres with a chair, in the kitchen (`chairAt` 1000) or the living room. */
function plan(chairAt: number): string {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 200))
  const { to, owner } = w.target('model')
  const room = (x: number, width: number) => [
    { x, y: 0 },
    { x: x + width, y: 0 },
    { x: x + width, y: 5000 },
    { x, y: 5000 },
  ]
  w.lwpolyline(to, owner, 'A-AREA', room(0, 4000), true)
  w.lwpolyline(to, owner, 'A-AREA', room(4000, 6000), true)
  w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [
    10,
    2000,
    20,
    2500,
    30,
    0,
    40,
    250,
    1,
    'Kitchen',
  ])
  w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [
    10,
    7000,
    20,
    2500,
    30,
    0,
    40,
    250,
    1,
    'Living',
  ])
  w.insert(to, owner, 'Furniture', 'CHAIR', [chairAt, 1000])
  return w.toString()
}

describe('boq --locations', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-cli-locations-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'plan-a.dxf'), plan(1000))
  writeFileSync(join(dir, 'plan-b.dxf'), plan(6000))
  writeFileSync(join(dir, 'locations.csv'), 'layer,label\nA-AREA,text\n')
  writeFileSync(
    join(dir, 'locations.json'),
    JSON.stringify({ locations: [{ layer: 'A-AREA', label: 'text' }] }),
  )
  writeFileSync(
    join(dir, 'rules.csv'),
    'match,block,code,description,rate\ncount,CHAIR,1,Chairs,50\n',
  )

  it('gives the zones and every line and item by zone, with --rules', async () => {
    const ran = await run(
      ['plan-a.dxf', '--locations', 'locations.csv', '--rules', 'rules.csv'],
      dir,
    )
    expect(ran.code).toBe(0)
    const boq = JSON.parse(ran.stdout) as Boq
    expect(boq.zones?.map((z) => [z.name, z.area])).toEqual([
      ['Kitchen', 20],
      ['Living', 30],
    ])
    const kitchen = boq.zones?.[0].id
    expect(boq.bill.find((l) => l.block === 'CHAIR')?.byZone).toEqual([
      { zone: kitchen, quantity: 1 },
    ])
    expect(boq.priced?.items[0].byZone).toEqual([{ zone: kitchen, quantity: 1 }])
  })

  it('reads JSON too; compare takes the locations for both drawings', async () => {
    const ran = await run(
      ['compare', 'plan-a.dxf', 'plan-b.dxf', '--locations', 'locations.json'],
      dir,
    )
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout).lines.length).toBeGreaterThan(0)
  })

  it('a bad locations file: one line naming the file and row, exit 2, nothing written', async () => {
    writeFileSync(join(dir, 'bad.csv'), 'layer,label\nA-AREA,room name\n')
    const ran = await run(
      ['plan-a.dxf', '--locations', 'bad.csv', '--format', 'xlsx', '--out', 'out/'],
      dir,
    )
    expect(ran.code).toBe(2)
    expect(ran.stderr).toBe(
      "boq: bad.csv: row 2: label 'room name' is not text, attribute:TAG or layer\n",
    )
    expect(existsSync(join(dir, 'out'))).toBe(false)
    const missing = await run(['plan-a.dxf', '--locations', 'none.csv'], dir)
    expect(missing).toMatchObject({ code: 2, stderr: 'boq: none.csv: no such file\n' })
  })
})
