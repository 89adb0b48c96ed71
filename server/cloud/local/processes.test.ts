/**
 * Several server processes on one cloud folder: real Node processes
 * (server/testing/cloud/local/cloud-process.ts), each with its own LocalCloud, writing and listing
 * the same items at the same time.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { spawnNode, stopChild } from '../../../scripts/children.ts'
import type { UserProfile } from '../../auth/types.ts'
import type { CloudRequest } from '../../testing/cloud/local/cloud-process.ts'
import { makeId } from './ids.ts'
import { createLocalCloud } from './local-cloud.ts'
import { HISTORY_DIR } from './version-store.ts'

const CHILD = join(import.meta.dirname, '../../testing/cloud/local/cloud-process.ts')
interface CloudProcess {
  ask<T>(request: CloudRequest): Promise<T>
}

let root: string
const children: ChildProcess[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'boq-cloud-processes-'))
})
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => stopChild(child)))
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** Starts a cloud process on `root` and resolves once it is ready for requests. */
async function startCloudProcess(): Promise<CloudProcess> {
  const child = spawnNode([CHILD, root], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    endWithParent: true,
  })
  children.push(child)
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 0
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => {
      const error = new Error(`cloud process exited with ${code}`)
      reject(error)
      for (const { reject: fail } of waiting.values()) fail(error)
    })
    child.on(
      'message',
      (message: { ready?: true; id?: number; result?: unknown; error?: string }) => {
        if (message.ready) return resolve()
        const asked = waiting.get(message.id ?? -1)
        waiting.delete(message.id ?? -1)
        if (message.error !== undefined) asked?.reject(new Error(message.error))
        else asked?.resolve(message.result)
      },
    )
  })
  await ready
  return {
    ask<T>(request: CloudRequest) {
      const id = nextId++
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
        child.send({ id, request })
      })
    },
  }
}

const ctx = {
  user: { userId: 'u-test', name: 'Test Person', picture: '' } as UserProfile,
  accessToken: 'x',
}
const history = (folder: string, name: string) =>
  join(root, ...folder.split('/'), HISTORY_DIR, name)
async function recordedNumbers(folder: string, name: string): Promise<number[]> {
  const text = await readFile(join(history(folder, name), 'versions.json'), 'utf8')
  return (JSON.parse(text) as { versions: { number: number }[] }).versions.map((v) => v.number)
}

describe('several processes on one cloud folder', () => {
  it('gives every upload of one item its own number, none lost, while another process reads', async () => {
    const folder = 'Acme/Alpha/Results'
    await mkdir(join(root, ...folder.split('/')), { recursive: true })
    const name = 'plan.boq.xlsx'
    const first = await createLocalCloud({ root, localUserName: 'Local' }).upload(ctx, {
      projectId: makeId('project', 'Acme/Alpha'),
      folderId: makeId('folder', folder),
      fileName: name,
      bytes: new TextEncoder().encode('first'),
    })
    expect(first.versionNumber).toBe(1)

    const WRITERS = 3
    const EACH = 12
    const [reader, ...writers] = await Promise.all(
      Array.from({ length: WRITERS + 1 }, () => startCloudProcess()),
    )
    const texts = writers.map((_, w) =>
      Array.from({ length: EACH }, (_, i) => `writer ${w} upload ${i}`),
    )
    const allowed = ['first', ...texts.flat()]
    const [problems, ...given] = await Promise.all([
      reader?.ask<string[]>({ op: 'watch', folder, fileName: name, times: 20, allowed }),
      ...writers.map((writer, w) =>
        writer.ask<number[]>({ op: 'upload', folder, fileName: name, texts: texts[w] ?? [] }),
      ),
    ])

    const total = 1 + WRITERS * EACH
    const numbers = Array.from({ length: total }, (_, i) => i + 1)
    // Each upload was told a number of its own, and each writer's numbers go up.
    expect(given.flat().sort((a, b) => a - b)).toEqual(numbers.slice(1))
    for (const mine of given) expect(mine).toEqual([...mine].sort((a, b) => a - b))
    expect(await recordedNumbers(folder, name)).toEqual(numbers)
    // Every version's bytes kept, each upload's once.
    const copies = await Promise.all(
      numbers.map((n) => readFile(join(history(folder, name), `v${n}.xlsx`), 'utf8')),
    )
    expect(copies.sort()).toEqual([...allowed].sort())
    // The item's file is the newest version.
    expect(await readFile(join(root, ...folder.split('/'), name), 'utf8')).toBe(
      await readFile(join(history(folder, name), `v${total}.xlsx`), 'utf8'),
    )
    // The reader saw n…1 with distinct bytes each time, never a version half written.
    expect(problems).toEqual([])
  })

  it('records a file overwritten by hand once when two processes list it at the same moment', async () => {
    const folder = 'Acme/Alpha/Hand'
    const dir = join(root, ...folder.split('/'))
    await mkdir(dir, { recursive: true })
    const names = Array.from({ length: 40 }, (_, i) => `hand-${i}.dwg`)
    const processes = await Promise.all([startCloudProcess(), startCloudProcess()])
    const ROUNDS = 4
    for (let round = 1; round <= ROUNDS; round++) {
      await Promise.all(names.map((name) => writeFile(join(dir, name), `${name} by hand ${round}`)))
      await Promise.all(processes.map((p) => p.ask({ op: 'list', folder })))
      for (const name of names) {
        expect(await recordedNumbers(folder, name), name).toEqual(
          Array.from({ length: round }, (_, i) => i + 1),
        )
      }
    }
    // One copy per version, with the bytes of its round, and neither a lock nor a copy half made
    // left behind.
    for (const name of names) {
      const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1)
      expect((await readdir(history(folder, name))).sort(), name).toEqual([
        ...rounds.map((round) => `v${round}.dwg`),
        'versions.json',
      ])
      for (const round of rounds) {
        const copy = await readFile(join(history(folder, name), `v${round}.dwg`), 'utf8')
        expect(copy).toBe(`${name} by hand ${round}`)
      }
    }
  })
})
