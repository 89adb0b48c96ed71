import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createKeyedLock } from '../../lib/keyed-lock.ts'
import { createItemLock } from './item-lock.ts'
import { createVersionRecorder } from './version-recorder.ts'
import { HISTORY_DIR, historyDir, keptVersion } from './version-store.ts'

// Every file the recorder looks at on disk, it first asks whether it is recorded and kept.
vi.mock('./version-store.ts', async (importOriginal) => {
  const store = await importOriginal<typeof import('./version-store.ts')>()
  return { ...store, keptVersion: vi.fn(store.keptVersion) }
})

/** The files written here are whole as written (settling has tests of its own). */
const AT_ONCE = { settleMs: 0 }

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'boq-version-recorder-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

/** A recorder, and the files looked at on disk since it was made (or since `forget`). */
function countingRecorder() {
  const forget = () => vi.mocked(keptVersion).mockClear()
  forget()
  const recorder = createVersionRecorder({
    fallbackUser: 'Local Person',
    lock: createKeyedLock(),
    settle: AT_ONCE,
  })
  const looked = () => vi.mocked(keptVersion).mock.calls.map(([abs]) => abs)
  return { recorder, looked, forget }
}

async function files(names: string[]) {
  return Promise.all(
    names.map(async (name) => {
      const abs = join(folder, name)
      return { name, abs, info: await stat(abs) }
    }),
  )
}

describe('recording a folder’s files', () => {
  it('looks on disk only at the files whose size or mtime it has not seen recorded', async () => {
    const names = Array.from({ length: 50 }, (_, i) => `f-${i}.dwg`)
    await Promise.all(names.map((name) => writeFile(join(folder, name), name)))
    const { recorder, looked, forget } = countingRecorder()

    await recorder.recordAll(folder, await files(names))
    expect(looked()).toHaveLength(50)

    // Nothing changed: no file is looked at again.
    forget()
    await recorder.recordAll(folder, await files(names))
    expect(looked()).toEqual([])

    // One file overwritten (same size, another mtime), one touched: those two only.
    await writeFile(join(folder, 'f-3.dwg'), 'f-9.dwg')
    await utimes(join(folder, 'f-3.dwg'), new Date(), new Date(Date.now() + 5000))
    await utimes(join(folder, 'f-7.dwg'), new Date(), new Date(Date.now() + 9000))
    await recorder.recordAll(folder, await files(names))
    expect(looked().sort()).toEqual([join(folder, 'f-3.dwg'), join(folder, 'f-7.dwg')])
  })

  it('after a restart, looks at nothing the folder’s summary shows recorded', async () => {
    const names = ['again-1.dwg', 'again-2.dwg', 'again-3.dwg']
    await Promise.all(names.map((name) => writeFile(join(folder, name), name)))
    await countingRecorder().recorder.recordAll(folder, await files(names))

    const { recorder, looked } = countingRecorder()
    await recorder.recordAll(folder, await files(names))
    expect(looked()).toEqual([])

    // A file changed while nobody listed: the summary is out of date for it, and it is checked.
    await writeFile(join(folder, 'again-2.dwg'), 'changed by hand')
    const { recorder: third, looked: thirdLooked } = countingRecorder()
    await third.recordAll(folder, await files(names))
    expect(thirdLooked()).toEqual([join(folder, 'again-2.dwg')])
  })

  it('without the summary, checks each file on disk once, then remembers it', async () => {
    const names = ['lost-1.dwg', 'lost-2.dwg']
    await Promise.all(names.map((name) => writeFile(join(folder, name), name)))
    await countingRecorder().recorder.recordAll(folder, await files(names))
    await rm(join(folder, HISTORY_DIR, '.recorded.json'))

    const { recorder, looked } = countingRecorder()
    await recorder.recordAll(folder, await files(names))
    await recorder.recordAll(folder, await files(names))
    expect(looked().sort()).toEqual(names.map((name) => join(folder, name)))
  })
})

/** A promise, and the function that resolves it. */
function signal() {
  let resolve = () => {}
  const promise = new Promise<void>((settle) => {
    resolve = settle
  })
  return { promise, resolve: () => resolve() }
}

describe('listing an item’s versions', () => {
  it('meeting another process’s upload halfway, answers once that upload is over', async () => {
    const abs = join(folder, 'busy.dwg')
    await writeFile(abs, 'one')
    const recorder = createVersionRecorder({
      fallbackUser: 'Local Person',
      lock: createItemLock(),
      settle: AT_ONCE,
    })
    await recorder.record(abs)
    const actual = await vi.importActual<typeof import('./version-store.ts')>('./version-store.ts')

    // Another process's upload of version 2 (a lock of its own), held halfway: its copy kept and
    // the file replaced, its record not yet written. It starts right after the listing has found
    // the file recorded, and goes on once the listing looks again.
    const halfway = signal()
    const goOn = signal()
    const upload = () =>
      createItemLock()(abs, async () => {
        await writeFile(join(historyDir(abs), 'v2.dwg'), 'two')
        await writeFile(abs, 'two')
        halfway.resolve()
        await goOn.promise
        const meta = join(historyDir(abs), 'versions.json')
        const { versions } = JSON.parse(await readFile(meta, 'utf8')) as { versions: unknown[] }
        const { size, mtimeMs } = await stat(abs)
        const record = { number: 2, createTime: '', userName: 'Other Person', size, mtimeMs }
        await writeFile(meta, JSON.stringify({ versions: [...versions, record] }))
      })
    let uploaded: Promise<void> | undefined
    vi.mocked(keptVersion)
      .mockImplementationOnce(async (itemAbs) => {
        const kept = await actual.keptVersion(itemAbs)
        uploaded = upload()
        await halfway.promise
        return kept
      })
      .mockImplementationOnce((itemAbs) => {
        goOn.resolve()
        return actual.keptVersion(itemAbs)
      })

    const versions = await recorder.versions(abs)
    // A listing that did not look again must not leave the upload waiting.
    goOn.resolve()
    await uploaded
    expect(versions.map((v) => [v.number, v.userName, v.path])).toEqual([
      [1, 'Local Person', join(historyDir(abs), 'v1.dwg')],
      [2, 'Other Person', join(historyDir(abs), 'v2.dwg')],
    ])
  })
})
