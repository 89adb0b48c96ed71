import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProjectBill } from '#contract/project-bills.ts'
import { syncDirectory, TEMP_SUFFIX, writeFileAtomic } from '../lib/atomic-write.ts'
import { createKeyedLock } from '../lib/keyed-lock.ts'
import { creationClock } from './creation-clock.ts'
import { openEmbeddedParts } from './embedded-parts.ts'
import type { BillStore, IssueFiles, IssueRecord } from './types.ts'

const ISSUE_FILE = 'issue.json'

/**
 * Project bills in the data folder: `project-bills/<billId>/bill.json`, its issues beside it as
 * `issues/<number>/` (`issue.json` and the files it was issued as). Every write is whole or
 * absent after a crash; an issue's folder is renamed into place, which fails when the number is
 * taken, so no number is ever given twice. The drawings' parts are kept beside (embedded-parts.ts).
 */
export async function openEmbeddedBillStore(options: { dataDir: string }): Promise<BillStore> {
  const root = join(options.dataDir, 'project-bills')
  await mkdir(root, { recursive: true })
  const parts = await openEmbeddedParts({ dataDir: options.dataDir })
  const locked = createKeyedLock()
  const createdAt = creationClock()
  const billDir = (billId: string) => join(root, billId)
  const billFile = (billId: string) => join(billDir(billId), 'bill.json')
  const issuesDir = (billId: string) => join(billDir(billId), 'issues')

  async function read(billId: string): Promise<ProjectBill | undefined> {
    // Ids are ours (UUIDs): anything else names no bill, and never a path.
    if (!/^[0-9a-f-]{36}$/.test(billId)) return undefined
    try {
      return JSON.parse(await readFile(billFile(billId), 'utf8')) as ProjectBill
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  async function own(projectId: string, billId: string): Promise<ProjectBill | undefined> {
    const bill = await read(billId)
    return bill?.projectId === projectId ? bill : undefined
  }

  async function issueNumbers(billId: string): Promise<number[]> {
    const names = await readdir(issuesDir(billId)).catch((error) => {
      if (isMissing(error)) return [] as string[]
      throw error
    })
    return names.flatMap((name) => {
      const match = /^(\d+)$/.exec(name)
      return match ? [Number(match[1])] : []
    })
  }

  return {
    async create(asked) {
      const bill: ProjectBill = {
        id: randomUUID(),
        projectId: asked.projectId,
        name: asked.name,
        folderIds: asked.folderIds,
        itemIds: asked.itemIds,
        createdBy: asked.createdBy,
        createdAt: createdAt(),
      }
      await mkdir(billDir(bill.id), { recursive: true })
      await writeFileAtomic(billFile(bill.id), JSON.stringify(bill))
      return bill
    },

    async list(projectId) {
      const bills: ProjectBill[] = []
      for (const name of await readdir(root)) {
        const bill = await read(name).catch(() => undefined)
        if (bill?.projectId === projectId) bills.push(bill)
      }
      return bills.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    },

    get: own,

    patch(projectId, billId, patch) {
      return locked(billId, async () => {
        const bill = await own(projectId, billId)
        if (!bill) return undefined
        const changed: ProjectBill = {
          ...bill,
          ...(patch.name === undefined ? {} : { name: patch.name }),
          ...(patch.folderIds === undefined ? {} : { folderIds: patch.folderIds }),
          ...(patch.itemIds === undefined ? {} : { itemIds: patch.itemIds }),
        }
        await writeFileAtomic(billFile(billId), JSON.stringify(changed))
        return changed
      })
    },

    delete(projectId, billId) {
      return locked(billId, async () => {
        if (!(await own(projectId, billId))) return false
        // Moved aside in one step first: a crash leaves the bill whole or gone, never half.
        const gone = join(root, `.deleted-${billId}-${randomBytes(4).toString('hex')}`)
        await rename(billDir(billId), gone)
        await syncDirectory(root)
        await rm(gone, { recursive: true, force: true })
        return true
      })
    },

    issue(projectId, billId, asked) {
      return locked(`${billId}\nissues`, async () => {
        if (!(await own(projectId, billId))) return undefined
        const dir = issuesDir(billId)
        await mkdir(dir, { recursive: true })
        for (let number = Math.max(0, ...(await issueNumbers(billId))) + 1; ; number++) {
          const issue: IssueRecord = {
            number,
            name: asked.name,
            issuedAt: new Date().toISOString(),
            issuedBy: asked.issuedBy,
            versions: asked.versions,
            figures: asked.figures,
          }
          const { figures: _figures, ...said } = issue
          const files = await asked.files(said)
          if (await placeNew(join(dir, String(number)), issue, files)) return issue
        }
      })
    },

    async issues(projectId, billId) {
      if (!(await own(projectId, billId))) return []
      const numbers = (await issueNumbers(billId)).sort((a, b) => a - b)
      return Promise.all(
        numbers.map(
          async (number) =>
            JSON.parse(
              await readFile(join(issuesDir(billId), String(number), ISSUE_FILE), 'utf8'),
            ) as IssueRecord,
        ),
      )
    },

    async issueFile(projectId, billId, number, format) {
      if (!Number.isInteger(number) || !(await own(projectId, billId))) return undefined
      try {
        return new Uint8Array(
          await readFile(join(issuesDir(billId), String(number), `bill.${format}`)),
        )
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },

    parts: parts.parts,
    keepPart: parts.keepPart,
    close: parts.close,
  }
}

/**
 * Makes the issue's folder whole beside its place, then renames it into place in one step, which
 * fails when the number is taken (false): an issue is there with all its files, or not at all.
 */
async function placeNew(path: string, issue: IssueRecord, files: IssueFiles): Promise<boolean> {
  const parent = join(path, '..')
  const temp = join(parent, `.new-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
  await mkdir(temp)
  try {
    await writeSynced(join(temp, ISSUE_FILE), JSON.stringify(issue))
    for (const [format, bytes] of Object.entries(files)) {
      await writeSynced(join(temp, `bill.${format}`), bytes)
    }
    await syncDirectory(temp)
    try {
      await rename(temp, path)
      return true
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST' || code === 'ENOTEMPTY') return false
      throw error
    }
  } finally {
    await rm(temp, { recursive: true, force: true })
    await syncDirectory(parent)
  }
}

async function writeSynced(path: string, data: string | Uint8Array): Promise<void> {
  const file = await open(path, 'wx', 0o600)
  try {
    await file.writeFile(data)
    await file.sync()
  } finally {
    await file.close()
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}
