import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { prepareDataDir } from './prepare.ts'

let scratch: string
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'boq-notes-'))
})
afterAll(() => rm(scratch, { recursive: true, force: true }))

/** What a local-mode start logs for a data folder and BOQ_SEED_DIR. */
async function startLines(dataDir: string, seedDir: string, env: Record<string, string> = {}) {
  const lines: string[] = []
  const config = loadConfig({ BOQ_DATA_DIR: dataDir, BOQ_SEED_DIR: seedDir, ...env })
  await prepareDataDir(config, (line) => lines.push(line))
  return lines
}

describe('where drawings go, on start', () => {
  it('says plainly that a new demo cloud has no drawings, and where to drop them', async () => {
    const dataDir = join(scratch, 'empty')
    const lines = await startLines(dataDir, '')
    const cloud = join(dataDir, 'cloud')
    expect(lines).toEqual([
      `Local cloud: ${cloud}, created now with the demo hub and no drawings (no seed folder: BOQ_SEED_DIR).`,
      `To add drawings, drop .dwg files into ${join(cloud, 'Demo Hub', 'Harbour Residences', 'Project Files')}, or upload them in the app.`,
    ])
    // Every later start still says where the cloud is and where drawings go.
    const again = await startLines(dataDir, '')
    expect(again[0]).toBe(`Local cloud: ${cloud}.`)
    expect(again[1]).toBe(lines[1])
  })

  it('names a seed folder that had no drawings', async () => {
    const seedDir = join(scratch, 'no-drawings')
    await mkdir(seedDir)
    await writeFile(join(seedDir, 'readme.txt'), 'not a drawing')
    const lines = await startLines(join(scratch, 'seed-empty'), seedDir)
    expect(lines[0]).toMatch(`no drawings (${seedDir} has no .dwg files).`)
  })

  it('counts the drawings copied in', async () => {
    const seedDir = join(scratch, 'drawings')
    await mkdir(seedDir)
    for (const name of ['a.dwg', 'b.dwg']) await writeFile(join(seedDir, name), name)
    const lines = await startLines(join(scratch, 'seeded'), seedDir)
    expect(lines[0]).toMatch(`, created now with the demo hub and 2 drawing(s) from ${seedDir}.`)
  })

  it('points at a project folder when the cloud has no demo hub', async () => {
    const dataDir = join(scratch, 'own')
    await mkdir(join(dataDir, 'cloud', 'My Hub', 'My Project', 'Files'), { recursive: true })
    const lines = await startLines(dataDir, '')
    expect(lines[1]).toBe(
      `To add drawings, drop .dwg files into a folder of a project, ${join(dataDir, 'cloud', '<hub>', '<project>', '<folder>')}, or upload them in the app.`,
    )
  })

  it('says nothing about a local cloud in Autodesk mode', async () => {
    const lines = await startLines(join(scratch, 'aps'), '', {
      APS_CLIENT_ID: 'id',
      APS_CLIENT_SECRET: 'secret',
      APS_CALLBACK_URL: 'http://127.0.0.1:9/api/aps/auth/callback',
    })
    expect(lines).toEqual([])
  })
})
