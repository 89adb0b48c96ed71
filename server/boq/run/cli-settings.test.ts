import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { billSettings } from '#contract/testing/priced-bill.ts'
import { knownDrawing } from '../../testing/boq/known-drawing.ts'
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

describe('boq --settings', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-cli-settings-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'known.dxf'), knownDrawing())
  writeFileSync(
    join(dir, 'rules.csv'),
    'match,block,code,description,rate\ncount,DOOR,23.10,Doors,150\n',
  )
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(billSettings()))

  it('prices the bill with the settings: currency, header and adjustments in the JSON', async () => {
    const ran = await run(['known.dxf', '--rules', 'rules.csv', '--settings', 'settings.json'], dir)
    expect(ran.code).toBe(0)
    const { priced } = JSON.parse(ran.stdout)
    expect(priced.currency).toEqual({ code: 'EUR', symbol: '€', decimals: 2 })
    expect(priced.header).toMatchObject({ client: 'ACME Properties Ltd' })
    expect(priced.adjustments.map((a: { name: string }) => a.name)).toEqual(
      billSettings().adjustments?.map((a) => a.name),
    )
    expect(priced.total).toBeGreaterThan(priced.itemsTotal)
  })

  it('without settings, the bill has no currency and no adjustments', async () => {
    const ran = await run(['known.dxf', '--rules', 'rules.csv'], dir)
    const { priced } = JSON.parse(ran.stdout)
    expect(priced).toMatchObject({ currency: null, adjustments: [], total: priced.itemsTotal })
  })

  it('a bad settings file: one line naming the field, exit 2, nothing written', async () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        currency: 'EUR',
        adjustments: [{ kind: 'percent', name: 'Prelims', percent: 'ten' }],
      }),
    )
    writeFileSync(join(dir, 'broken.json'), '{"currency": ')
    const typed = ['known.dxf', '--rules', 'rules.csv', '--format', 'xlsx', '--out', 'boqs/']
    const bad = await run([...typed, '--settings', 'bad.json'], dir)
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([
      2,
      '',
      'boq: bad.json: adjustment 1 (Prelims), percent: must be a number\n',
    ])
    expect(existsSync(join(dir, 'boqs'))).toBe(false)
    const broken = await run([...typed, '--settings', 'broken.json'], dir)
    expect([broken.code, broken.stderr]).toEqual([
      2,
      expect.stringMatching(/^boq: broken\.json: not JSON \(/),
    ])
    const missing = await run([...typed, '--settings', 'none.json'], dir)
    expect([missing.code, missing.stderr]).toEqual([2, 'boq: none.json: no such file\n'])
    const csv = await run([...typed, '--settings', 'rules.csv'], dir)
    expect(csv.stderr).toBe('boq: rules.csv: not a JSON file (by its name)\n')
    const alone = await run(['known.dxf', '--settings', 'settings.json'], dir)
    expect([alone.code, alone.stderr.split('\n')[0]]).toEqual([2, 'boq: --settings needs --rules'])
  })

  it('--help names it', async () => {
    expect((await run(['--help'], dir)).stdout).toMatch(/--settings <settings\.json>/)
  })
})
