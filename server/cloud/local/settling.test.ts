/**
 * A file dropped by hand becomes a version once it has stopped changing: a copy seen half written
 * is shown as the next version, not kept, and is recorded once whole, as one version. Real files
 * in a temp folder; the cloud's clock is the test's, set from the files' own modification times.
 */
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserProfile } from '../../auth/types.ts'
import type { JsonApiResource } from '../types.ts'
import { makeId } from './ids.ts'
import { createLocalCloud, type LocalCloud } from './local-cloud.ts'
import { stillArriving } from './resources.ts'
import { HISTORY_DIR } from './version-store.ts'

const SETTLE_MS = 2000
const HOUR = 3_600_000
const ctx = {
  user: { userId: 'u-writer', name: 'Writer Person', picture: '' } as UserProfile,
  accessToken: 'x',
}
const DOCS = 'Acme/Alpha/Docs'
const ids = {
  hub: makeId('hub', 'Acme'),
  project: makeId('project', 'Acme/Alpha'),
  docs: makeId('folder', DOCS),
}

let root: string
let cloud: LocalCloud
/** The cloud's time now. */
let clock = 0
const docsDir = () => join(root, ...DOCS.split('/'))
const onDisk = (name: string) => join(docsDir(), name)

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'boq-settling-'))
  await mkdir(docsDir(), { recursive: true })
  cloud = createLocalCloud({
    root,
    localUserName: 'Local Person',
    settle: { settleMs: SETTLE_MS, now: () => clock },
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** The cloud's clock at the file's last change: it has not settled yet. */
async function justChanged(name: string): Promise<void> {
  clock = (await stat(onDisk(name))).mtimeMs
}

/** A look as the tree and a watch take one: the folder, then the item's versions. */
async function look(name: string) {
  await cloud.contents(ctx, ids.hub, ids.project, ids.docs)
  const versions = await cloud.versions(
    ctx,
    ids.hub,
    ids.project,
    makeId('item', `${DOCS}/${name}`),
  )
  return Promise.all(
    versions.map(async (version: JsonApiResource) => ({
      number: version.attributes.versionNumber,
      size: version.attributes.storageSize,
      arriving: stillArriving(version),
      bytes: new TextDecoder().decode(
        await cloud.download(ctx, ids.project, version.relationships?.storage?.data?.id as string),
      ),
    })),
  )
}

/** The numbers versions.json records: the versions kept. */
async function recorded(name: string): Promise<number[]> {
  const text = await readFile(join(docsDir(), HISTORY_DIR, name, 'versions.json'), 'utf8').catch(
    () => '{"versions":[]}',
  )
  return (JSON.parse(text) as { versions: { number: number }[] }).versions.map((v) => v.number)
}

describe('a file dropped by hand', () => {
  it('that stopped changing a while ago is recorded at the first look, as before', async () => {
    await writeFile(onDisk('old.dwg'), 'dropped an hour ago')
    clock = Date.now()
    const anHourAgo = new Date(clock - HOUR)
    await utimes(onDisk('old.dwg'), anHourAgo, anHourAgo)
    expect(await look('old.dwg')).toEqual([
      { number: 1, size: 19, arriving: false, bytes: 'dropped an hour ago' },
    ])
    expect(await recorded('old.dwg')).toEqual([1])
  })

  it('written in two halves over an earlier version is one new version, with the whole bytes', async () => {
    await writeFile(onDisk('plan.dwg'), 'version one')
    await justChanged('plan.dwg')
    clock += SETTLE_MS
    expect((await look('plan.dwg')).map((v) => v.number)).toEqual([1])
    expect(await recorded('plan.dwg')).toEqual([1])

    // The copy's first half, seen: the next version, shown as still arriving, not kept.
    await writeFile(onDisk('plan.dwg'), 'first half, ')
    await justChanged('plan.dwg')
    expect(await look('plan.dwg')).toEqual([
      { number: 2, size: 12, arriving: true, bytes: 'first half, ' },
      { number: 1, size: 11, arriving: false, bytes: 'version one' },
    ])
    expect(await recorded('plan.dwg')).toEqual([1])

    // The second half: the same version, grown.
    await appendFile(onDisk('plan.dwg'), 'second half')
    await justChanged('plan.dwg')
    expect((await look('plan.dwg')).map((v) => [v.number, v.size, v.arriving])).toEqual([
      [2, 23, true],
      [1, 11, false],
    ])
    expect(await recorded('plan.dwg')).toEqual([1])

    // Unchanged for the settling time: version 2 is recorded whole, and stays the only new one.
    clock += SETTLE_MS
    const whole = [
      { number: 2, size: 23, arriving: false, bytes: 'first half, second half' },
      { number: 1, size: 11, arriving: false, bytes: 'version one' },
    ]
    expect(await look('plan.dwg')).toEqual(whole)
    expect(await recorded('plan.dwg')).toEqual([1, 2])
    expect(await readFile(join(docsDir(), HISTORY_DIR, 'plan.dwg', 'v2.dwg'), 'utf8')).toBe(
      'first half, second half',
    )
    clock += SETTLE_MS
    expect(await look('plan.dwg')).toEqual(whole)
  })

  it('new, is listed as version 1 while it is written, and recorded once whole', async () => {
    await writeFile(onDisk('new.dwg'), 'half')
    await justChanged('new.dwg')
    expect(await look('new.dwg')).toEqual([{ number: 1, size: 4, arriving: true, bytes: 'half' }])
    await appendFile(onDisk('new.dwg'), ' and the rest')
    await justChanged('new.dwg')
    // Not yet settled: a look a moment before the settling time has passed.
    clock += SETTLE_MS - 1
    expect((await look('new.dwg')).map((v) => v.arriving)).toEqual([true])
    expect(await recorded('new.dwg')).toEqual([])
    clock += 1
    expect(await look('new.dwg')).toEqual([
      { number: 1, size: 17, arriving: false, bytes: 'half and the rest' },
    ])
    expect(await recorded('new.dwg')).toEqual([1])
  })

  it('whose modification time is ahead of the clock is recorded once it has looked the same for the settling time', async () => {
    await writeFile(onDisk('ahead.dwg'), 'from a machine whose clock is fast')
    clock = Date.now()
    const later = new Date(clock + HOUR)
    await utimes(onDisk('ahead.dwg'), later, later)
    expect((await look('ahead.dwg')).map((v) => v.arriving)).toEqual([true])
    clock += SETTLE_MS
    expect((await look('ahead.dwg')).map((v) => [v.number, v.arriving])).toEqual([[1, false]])
    expect(await recorded('ahead.dwg')).toEqual([1])
  })
})
