import { mkdir, mkdtemp, rm, stat, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createItemLock, LOCK_NAME } from './item-lock.ts'
import { historyDir } from './version-store.ts'

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'boq-item-lock-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

/** The lock of `name` as another process holds it: its directory, refreshed `ageMs` ago. */
async function heldElsewhere(name: string, ageMs = 0): Promise<string> {
  const lockDir = join(historyDir(join(folder, name)), LOCK_NAME)
  await mkdir(lockDir, { recursive: true })
  const refreshed = new Date(Date.now() - ageMs)
  await utimes(lockDir, refreshed, refreshed)
  return lockDir
}

describe('an item’s lock between processes', () => {
  it('waits while another process holds it, and runs once it is released', async () => {
    const lockDir = await heldElsewhere('held.dwg')
    let ran = false
    const writing = createItemLock()(join(folder, 'held.dwg'), async () => {
      ran = true
    })
    await sleep(300)
    expect(ran).toBe(false)
    await rm(lockDir, { recursive: true })
    await writing
    expect(ran).toBe(true)
  })

  it('takes over a lock its holder stopped refreshing (a process killed while writing)', async () => {
    const lockDir = await heldElsewhere('left.dwg', 60_000)
    const left = (await stat(lockDir)).mtimeMs
    const written = await createItemLock()(join(folder, 'left.dwg'), async () => {
      // Held by this process now: the directory made again.
      expect((await stat(lockDir)).mtimeMs).not.toBe(left)
      return 'written'
    })
    expect(written).toBe('written')
    // Released: nothing left behind.
    await expect(stat(lockDir)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('gives a task’s error to its caller and releases the lock', async () => {
    const abs = join(folder, 'failing.dwg')
    const lock = createItemLock()
    await expect(
      lock(abs, async () => {
        throw new Error('disk full')
      }),
    ).rejects.toThrow('disk full')
    expect(await lock(abs, async () => 'next')).toBe('next')
    await expect(stat(join(historyDir(abs), LOCK_NAME))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
