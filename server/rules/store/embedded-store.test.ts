import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openEmbeddedRulesStore } from './embedded-store.ts'

let dataDir: string
let said: string[]

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-rules-files-'))
  said = []
})
afterEach(() => rm(dataDir, { recursive: true, force: true }))

const versionFile = (projectId: string, kind: string, version: number) =>
  join(
    dataDir,
    'rules',
    createHash('sha256').update(projectId).digest('hex').slice(0, 32),
    kind,
    `${version}.json`,
  )

/** The version's file rewritten whole, its rows replaced by `rows`. */
async function rowsReplaced(file: string, rows: unknown): Promise<void> {
  const stored = JSON.parse(await readFile(file, 'utf8'))
  await writeFile(file, JSON.stringify({ ...stored, rows }))
}

describe('saved tables on files', () => {
  it('skips a version whose rows are not rows of its table, as the PostgreSQL store does', async () => {
    const store = openEmbeddedRulesStore({ dataDir, log: (message) => said.push(message) })
    const rule = { match: 'count' as const, block: 'D*', code: 'A' }
    await store.saveRules('p1', 'rules', 0, [rule], 'Ann')
    await store.saveRules('p1', 'rules', 1, [{ ...rule, code: 'B' }], 'Bob')
    await store.saveRules('p1', 'classification', 0, [{ code: 'A', title: 'Doors' }], 'Ann')
    await rowsReplaced(versionFile('p1', 'rules', 2), [{ code: 3 }])
    await rowsReplaced(versionFile('p1', 'classification', 1), [{ match: 'count' }])

    expect(await store.rules('p1', 'rules')).toMatchObject({ version: 1, rows: [rule] })
    expect((await store.rulesHistory('p1', 'rules')).map((saved) => saved.version)).toEqual([1])
    expect(await store.rules('p1', 'classification')).toBeUndefined()
    expect(said).toEqual([
      expect.stringContaining(`${versionFile('p1', 'rules', 2)}: `),
      expect.stringContaining(`${versionFile('p1', 'classification', 1)}: `),
    ])
  })
})
