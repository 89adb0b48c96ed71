/**
 * The local watch poller and a drawing copied by hand into the watched folder: a copy seen half
 * written is not noted; once whole (unchanged for the settling time) it is noted once, as one
 * version with its whole bytes. A real local cloud on a temp folder, with the test's clock; the
 * store and the standing access are stand-ins that keep what the poller tells them.
 */
import { appendFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { UserProfile } from '../../auth/types.ts'
import { makeId } from '../../cloud/local/ids.ts'
import { createLocalCloud, type LocalCloud } from '../../cloud/local/local-cloud.ts'
import type { StandingAccess } from '../standing-access.ts'
import type { WatchedVersion, WatchRecord, WatchStore } from '../store/types.ts'
import { startLocalPoller } from './local-poller.ts'

const SETTLE_MS = 2000
const DOCS = 'Acme/Alpha/Docs'
const ctx = {
  user: { userId: 'u-ann', name: 'Ann', picture: '' } as UserProfile,
  accessToken: 'x',
}
const watch: WatchRecord = {
  id: 'w-1',
  userId: 'u-ann',
  projectId: makeId('project', 'Acme/Alpha'),
  fileFolderId: makeId('folder', DOCS),
  folder: { name: 'Docs', hubId: makeId('hub', 'Acme'), path: ['Docs'] },
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  state: 'active',
}

let root: string
let cloud: LocalCloud
let clock = 0
/** What the poller noted, by storage id, in the order it noted them. */
const noted = new Map<string, WatchedVersion>()
let poller: ReturnType<typeof startLocalPoller>
const onDisk = (name: string) => join(root, ...DOCS.split('/'), name)

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'boq-local-poller-'))
  await mkdir(join(root, ...DOCS.split('/')), { recursive: true })
  cloud = createLocalCloud({
    root,
    localUserName: 'Local Person',
    settle: { settleMs: SETTLE_MS, now: () => clock },
  })
  const store = {
    allWatches: async () => [watch],
    async noteWatchedVersions(_watchId: string, versions: WatchedVersion[]) {
      let added = 0
      for (const version of versions) {
        if (noted.has(version.fileStorageId)) continue
        noted.set(version.fileStorageId, version)
        added++
      }
      return added
    },
  } as unknown as WatchStore
  const access = { contextFor: async () => ctx } as unknown as StandingAccess
  // Looks only when the test asks (the first, at start, finds an empty folder).
  poller = startLocalPoller({ store, cloud, access, everyMs: 3_600_000, onNoted: () => {} })
  await poller.poll()
})
afterAll(async () => {
  await poller?.close()
  await rm(root, { recursive: true, force: true })
})

/** The cloud's clock at the file's last change: it has not settled yet. */
async function justChanged(name: string): Promise<void> {
  clock = (await stat(onDisk(name))).mtimeMs
}

const notedNumbers = () => [...noted.values()].map((v) => [v.fileName, v.fileVersionNumber])

it('notes a drawing copied in two halves once it is whole, as one version with the whole bytes', async () => {
  await writeFile(onDisk('plan.dwg'), 'first half, ')
  await justChanged('plan.dwg')
  await poller.poll()
  expect(notedNumbers()).toEqual([])

  await appendFile(onDisk('plan.dwg'), 'second half')
  await justChanged('plan.dwg')
  await poller.poll()
  expect(notedNumbers()).toEqual([])

  // Nothing changes on disk from here: the file is looked at again all the same.
  clock += SETTLE_MS
  await poller.poll()
  expect(notedNumbers()).toEqual([['plan.dwg', 1]])
  const [version] = noted.values()
  const bytes = await cloud.download(ctx, watch.projectId, version?.fileStorageId as string)
  expect(new TextDecoder().decode(bytes)).toBe('first half, second half')

  clock += SETTLE_MS
  await poller.poll()
  expect(notedNumbers()).toEqual([['plan.dwg', 1]])
})

it('notes the next version copied over it the same way: one, once whole', async () => {
  await writeFile(onDisk('plan.dwg'), 'v2 begins')
  await justChanged('plan.dwg')
  await poller.poll()
  await appendFile(onDisk('plan.dwg'), ' and ends')
  await justChanged('plan.dwg')
  await poller.poll()
  expect(notedNumbers()).toEqual([['plan.dwg', 1]])
  clock += SETTLE_MS
  await poller.poll()
  expect(notedNumbers()).toEqual([
    ['plan.dwg', 1],
    ['plan.dwg', 2],
  ])
  const second = [...noted.values()][1]
  const bytes = await cloud.download(ctx, watch.projectId, second?.fileStorageId as string)
  expect(new TextDecoder().decode(bytes)).toBe('v2 begins and ends')
})
