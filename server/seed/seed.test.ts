import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { JsonApiResource } from '../cloud/types.ts'
import { loadConfig } from '../config.ts'
import { signIn } from '../testing/client.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'
import { DEMO_FOLDERS, DEMO_HUB, FEATURED_DRAWING, seedIfEmpty } from './seed.ts'

type List = JsonApiResource[]
const e = encodeURIComponent
const fixtures = loadConfig({}).seedDir

let scratch: string
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'boq-seed-'))
})
afterAll(() => rm(scratch, { recursive: true, force: true }))
const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function drawingsDir(names: string[]): Promise<string> {
  const dir = await mkdtemp(join(scratch, 'drawings-'))
  for (const name of names) await writeFile(join(dir, name), `bytes of ${name}`)
  return dir
}

describe('seeding an empty cloud', () => {
  it('creates a demo hub, two projects and folders, and spreads every .dwg over them', async () => {
    const names = [
      'a.dwg',
      'b.DWG',
      'c.dwg',
      FEATURED_DRAWING,
      'd.dwg',
      'e.dwg',
      'f.dwg',
      'g.dwg',
      'h.dwg',
    ]
    const seedDir = await drawingsDir([...names, 'readme.txt', '.hidden.dwg'])
    const cloud = join(scratch, 'cloud-1')
    const result = await seedIfEmpty(cloud, seedDir)
    expect(result.seeded).toBe(true)
    expect(result.files.map((f) => f.split('/').pop()).sort()).toEqual([...names].sort())
    expect(await readdir(cloud)).toEqual([DEMO_HUB])
    expect((await readdir(join(cloud, DEMO_HUB))).length).toBe(2)
    // The featured drawing lands first, in the first folder; every folder gets drawings.
    expect(result.files[0]).toBe(`${DEMO_FOLDERS[0]}/${FEATURED_DRAWING}`)
    const used = new Set(result.files.map((f) => f.slice(0, f.lastIndexOf('/'))))
    expect(used.size).toBe(DEMO_FOLDERS.length)
  })

  it('keeps the times of each copy, so a seeded drawing is whole at once (not settling)', async () => {
    const seedDir = await drawingsDir([FEATURED_DRAWING])
    const old = new Date('2024-01-02T03:04:05Z')
    await utimes(join(seedDir, FEATURED_DRAWING), old, old)
    const cloud = join(scratch, 'cloud-times')
    const result = await seedIfEmpty(cloud, seedDir)
    const copy = await stat(join(cloud, ...(result.files[0] as string).split('/')))
    expect(copy.mtime.toISOString()).toBe(old.toISOString())
  })

  it('leaves a cloud that has anything in it alone', async () => {
    const cloud = join(scratch, 'cloud-2')
    await mkdir(join(cloud, 'My Hub'), { recursive: true })
    const result = await seedIfEmpty(cloud, await drawingsDir(['a.dwg']))
    expect(result.seeded).toBe(false)
    expect(await readdir(cloud)).toEqual(['My Hub'])
  })

  it('creates the folders without drawings when there is no seed folder', async () => {
    const cloud = join(scratch, 'cloud-3')
    const result = await seedIfEmpty(cloud, null)
    expect(result).toEqual({ seeded: true, files: [] })
    expect(await readdir(cloud)).toEqual([DEMO_HUB])
  })

  it('fails with a readable reason when BOQ_SEED_DIR is not a folder', async () => {
    await expect(seedIfEmpty(join(scratch, 'cloud-4'), join(scratch, 'missing'))).rejects.toThrow(
      /BOQ_SEED_DIR: .*missing is not a folder/,
    )
  })

  it('on first start, a new user sees the sample drawings through the API', async () => {
    const server = await startTestServer({ seed: true })
    servers.push(server)
    const client = await signIn(server.url)
    const hubs = await client.json<List>('/api/aps/hubs')
    expect(hubs.map((h) => h.attributes.name)).toEqual([DEMO_HUB])
    const hubId = hubs[0]?.id as string
    const projects = await client.json<List>(`/api/aps/hubs/${e(hubId)}/projects`)
    expect(projects).toHaveLength(2)
    const projectId = projects[0]?.id as string
    const top = await client.json<List>(
      `/api/aps/hubs/${e(hubId)}/projects/${e(projectId)}/contents`,
    )
    const folderId = top[0]?.id as string
    const folder = await client.json<List>(
      `/api/aps/hubs/${e(hubId)}/projects/${e(projectId)}/contents?folder_id=${e(folderId)}`,
    )
    const featured = folder.find((x) => x.attributes.displayName === FEATURED_DRAWING)
    expect(featured?.type).toBe('items')
    const versions = await client.json<List>(
      `/api/aps/hubs/${e(hubId)}/projects/${e(projectId)}/contents/${e(featured?.id as string)}/versions`,
    )
    expect(versions.map((v) => v.attributes.versionNumber)).toEqual([1])

    // Every drawing of the fixtures folder is somewhere in the cloud (the listings above have
    // kept copies of what they listed in hidden .versions folders: those are not counted).
    const wanted = (await readdir(fixtures as string)).filter((n) => n.endsWith('.dwg')).sort()
    const seeded = (await readdir(join(server.dataDir, 'cloud'), { recursive: true }))
      .filter((p) => p.endsWith('.dwg') && !p.split('/').some((part) => part.startsWith('.')))
      .map((p) => p.split('/').pop())
      .sort()
    expect(seeded).toEqual(wanted)
  })
})
