import { randomUUID } from 'node:crypto'
import type { ProjectBill } from '#contract/project-bills.ts'
import { warnOnce } from '../../jobs/pg/job-rows.ts'
import type { QueueDb } from '../../lib/pg/transaction.ts'
import { inTransaction, type Query } from '../../lib/pg/transaction.ts'
import { isUuid } from '../../lib/pg/uuid.ts'
import { log as serverLog } from '../../log.ts'
import { creationClock } from '../creation-clock.ts'
import { type BillStore, type IssueRecord, isPartKey, type PartKey, partKeyText } from '../types.ts'
import {
  billRecord,
  billsOfProject,
  deleteBill,
  insertBill,
  insertIssue,
  insertPart,
  issueFileBytes,
  issuesOfBill,
  nextIssueNumber,
  partsOf,
  updateBill,
} from './bill-queries.ts'
import { billOf, issueOf } from './bill-rows.ts'

/**
 * The project bills on PostgreSQL, seen alike by every process: an issue takes its number under
 * a lock on the bill's row, in the transaction that keeps it with its files, so two issues at
 * once get two numbers and a process stopped midway leaves nothing. The drawings' parts are rows
 * deleted with their jobs. The tables (migrations 004 and 006) are made by the job store's
 * migrations, on whose pool this store runs.
 */
export function openPostgresBillStore(options: {
  /** The PostgreSQL job store's pool, its migrations applied. */
  db: QueueDb
  log?: (message: string) => void
}): BillStore {
  const { db } = options
  const warn = warnOnce(options.log ?? ((message) => serverLog.warn(message)))
  const query: Query = async (text, values) => (await db.executeSql(text, values)).rows
  const createdAt = creationClock()

  async function own(q: Query, projectId: string, billId: string, lock = false) {
    if (!isUuid(billId)) return undefined
    const record = await billRecord(q, projectId, billId, lock)
    return record === undefined ? undefined : billOf(record, warn)
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
      await insertBill(query, bill)
      return bill
    },

    async list(projectId) {
      return (await billsOfProject(query, projectId)).flatMap((record) => {
        const bill = billOf(record, warn)
        return bill ? [bill] : []
      })
    },

    get: (projectId, billId) => own(query, projectId, billId),

    patch(projectId, billId, patch) {
      return inTransaction(db, async (q) => {
        const bill = await own(q, projectId, billId, true)
        if (!bill) return undefined
        const changed: ProjectBill = {
          ...bill,
          ...(patch.name === undefined ? {} : { name: patch.name }),
          ...(patch.folderIds === undefined ? {} : { folderIds: patch.folderIds }),
          ...(patch.itemIds === undefined ? {} : { itemIds: patch.itemIds }),
        }
        await updateBill(q, changed)
        return changed
      })
    },

    async delete(projectId, billId) {
      return isUuid(billId) && deleteBill(query, projectId, billId)
    },

    issue(projectId, billId, asked) {
      return inTransaction(db, async (q) => {
        if (!(await own(q, projectId, billId, true))) return undefined
        const issue: IssueRecord = {
          number: await nextIssueNumber(q, billId),
          name: asked.name,
          issuedAt: new Date().toISOString(),
          issuedBy: asked.issuedBy,
          versions: asked.versions,
          figures: asked.figures,
        }
        const { figures: _figures, ...said } = issue
        await insertIssue(q, billId, issue, await asked.files(said))
        return issue
      })
    },

    async issues(projectId, billId) {
      if (!isUuid(billId)) return []
      return (await issuesOfBill(query, projectId, billId)).flatMap(({ number, record }) => {
        const issue = issueOf(billId, number, record, warn)
        return issue ? [issue] : []
      })
    },

    async issueFile(projectId, billId, number, format) {
      if (!isUuid(billId) || !isIssueNumber(number)) return undefined
      return issueFileBytes(query, projectId, billId, number, format)
    },

    async parts(keys) {
      const found = new Map<string, Uint8Array>()
      for (const row of await partsOf(query, keys.filter(keptHere))) {
        found.set(partKeyText(row), row.part)
      }
      return found
    },

    async keepPart(key, part) {
      if (keptHere(key)) await insertPart(query, key, part)
    },

    // The pool is the job store's, closed with it.
    async close() {},
  }
}

/** A part's key of a job this store can hold (the jobs' ids are UUIDs). */
function keptHere(key: PartKey): boolean {
  return isPartKey(key) && isUuid(key.jobId)
}

/** A number an issue can have (the column is a PostgreSQL integer). */
function isIssueNumber(number: number): boolean {
  return Number.isInteger(number) && number > 0 && number <= 2 ** 31 - 1
}
