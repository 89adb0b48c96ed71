import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeyedLock } from './keyed-lock.ts'
import { createVersionRecorder } from './version-recorder.ts'
import { HISTORY_DIR } from './version-store.ts'

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'boq-version-recorder-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

/** A recorder whose lock counts the files it looks at on disk. */
function countingRecorder() {
  const lock = createKeyedLock()
  const looked: string[] = []
  const recorder = createVersionRecorder({
    fallbackUser: 'Local Person',
    lock: (key, task) => {
      looked.push(key)
      return lock(key, task)
    },
  })
  return { recorder, looked }
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
    const { recorder, looked } = countingRecorder()

    await recorder.recordAll(folder, await files(names))
    expect(looked).toHaveLength(50)

    // Nothing changed: no file is looked at again.
    looked.length = 0
    await recorder.recordAll(folder, await files(names))
    expect(looked).toEqual([])

    // One file overwritten (same size, another mtime), one touched: those two only.
    await writeFile(join(folder, 'f-3.dwg'), 'f-9.dwg')
    await utimes(join(folder, 'f-3.dwg'), new Date(), new Date(Date.now() + 5000))
    await utimes(join(folder, 'f-7.dwg'), new Date(), new Date(Date.now() + 9000))
    await recorder.recordAll(folder, await files(names))
    expect(looked.sort()).toEqual([join(folder, 'f-3.dwg'), join(folder, 'f-7.dwg')])
  })

  it('after a restart, looks at nothing the folder’s summary shows recorded', async () => {
    const names = ['again-1.dwg', 'again-2.dwg', 'again-3.dwg']
    await Promise.all(names.map((name) => writeFile(join(folder, name), name)))
    await countingRecorder().recorder.recordAll(folder, await files(names))

    const { recorder, looked } = countingRecorder()
    await recorder.recordAll(folder, await files(names))
    expect(looked).toEqual([])

    // A file changed while nobody listed: the summary is out of date for it, and it is checked.
    await writeFile(join(folder, 'again-2.dwg'), 'changed by hand')
    const { recorder: third, looked: thirdLooked } = countingRecorder()
    await third.recordAll(folder, await files(names))
    expect(thirdLooked).toEqual([join(folder, 'again-2.dwg')])
  })

  it('without the summary, checks each file on disk once, then remembers it', async () => {
    const names = ['lost-1.dwg', 'lost-2.dwg']
    await Promise.all(names.map((name) => writeFile(join(folder, name), name)))
    await countingRecorder().recorder.recordAll(folder, await files(names))
    await rm(join(folder, HISTORY_DIR, '.recorded.json'))

    const { recorder, looked } = countingRecorder()
    await recorder.recordAll(folder, await files(names))
    await recorder.recordAll(folder, await files(names))
    expect(looked.sort()).toEqual(names.map((name) => join(folder, name)))
  })
})
