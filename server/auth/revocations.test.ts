import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileRevocations } from './revocations.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boq-revoked-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const file = () => join(dir, 'revoked-sessions.json')
const HOUR = 60 * 60 * 1000

describe('the file store of ended sessions', () => {
  it('keeps revoked ids until their time, and prunes the expired ones when it writes', async () => {
    const store = createFileRevocations(dir)
    expect(await store.isRevoked('a')).toBe(false)
    await store.revoke('a', Date.now() + HOUR)
    await store.revoke('gone', Date.now() - 1)
    expect(await store.isRevoked('a')).toBe(true)
    expect(await store.isRevoked('gone')).toBe(false)
    await store.revoke('b', Date.now() + HOUR)
    expect(Object.keys(JSON.parse(await readFile(file(), 'utf8')))).toEqual(['a', 'b'])
  })

  it('loses no id when revokes come together, and a second store on the folder sees them', async () => {
    const store = createFileRevocations(dir)
    const ids = Array.from({ length: 20 }, (_, i) => `id-${i}`)
    await Promise.all(ids.map((id) => store.revoke(id, Date.now() + HOUR)))
    const other = createFileRevocations(dir)
    for (const id of ids) expect(await other.isRevoked(id), id).toBe(true)
    await other.revoke('late', Date.now() + HOUR)
    expect(await store.isRevoked('late')).toBe(true)
  })

  it('refuses to guess when the file was damaged by hand', async () => {
    await writeFile(file(), '[1, 2')
    await expect(createFileRevocations(dir).isRevoked('a')).rejects.toThrow(/not a JSON object/)
  })
})
