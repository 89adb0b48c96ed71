import { randomBytes, randomUUID } from 'node:crypto'
import { link, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProjectBill } from '../../contract/project-bills.ts'
import { syncDirectory, TEMP_SUFFIX, writeFileAtomic } from '../lib/atomic-write.ts'
import { createKeyedLock } from '../lib/keyed-lock.ts'
import type { BillStore, IssueRecord } from './types.ts'

/**
 * Project bills in the data folder: `project-bills/<billId>/bill.json`, its issues beside it as
 * `issues/<number>.json`. Every write is whole or absent after a crash; an issue's file is
 * linked into place, which fails when the number is taken, so no number is ever given twice.
 */
export async function openEmbeddedBillStore(options: { dataDir: string }): Promise<BillStore> {
  const root = join(options.dataDir, 'project-bills')
  await mkdir(root, { recursive: true })
  const locked = createKeyedLock()
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
      const match = /^(\d+)\.json$/.exec(name)
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
        createdAt: new Date().toISOString(),
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
          if (await linkNew(join(dir, `${number}.json`), JSON.stringify(issue))) return issue
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
              await readFile(join(issuesDir(billId), `${number}.json`), 'utf8'),
            ) as IssueRecord,
        ),
      )
    },

    async close() {},
  }
}

/** Writes `path` whole, only when it does not exist yet (false: taken). */
async function linkNew(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
  const file = await open(temp, 'wx', 0o600)
  try {
    await file.writeFile(text)
    await file.sync()
  } finally {
    await file.close()
  }
  try {
    await link(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    await rm(temp, { force: true })
    await syncDirectory(join(path, '..'))
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}
