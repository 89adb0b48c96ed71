import { type Context, Hono } from 'hono'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import {
  PriceRequestSchema,
  RepriceRequestSchema,
  type WrittenBack,
} from '#contract/takeoff-rules-api.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { checkedBody, limitBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { findEarlierBill } from '../jobs/earlier-bill.ts'
import { keptWarnings } from '../jobs/kept-warnings.ts'
import type { PerUserLimit } from '../jobs/per-user-limit.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { userJob } from '../jobs/user-job.ts'
import { writeBackAgain } from '../jobs/write-back.ts'
import { type PriceWith, priceJob, type SettingsWith } from './priced-job.ts'
import type { VisibleProject } from './project-access.ts'
import { checkedList } from './rules-body.ts'
import type { RowsOf, RulesKind, RulesStore } from './store/types.ts'

export interface PriceRoutesOptions {
  store: JobStore
  /** The projects' saved rules and classification. */
  rules: RulesStore
  cloud: CloudBackend
  /** Where bills are priced and workbooks made, off the thread answering requests. */
  bills: BillPool
  /** How many heavy requests (change bills, pricing) each user may have running at once. */
  heavy: PerUserLimit
  withCloud: WithCloud
  /** The project's rules are read only by a user who can still see the project (404 else). */
  visibleProject: VisibleProject
}

/** A preview's body holds both tables, each up to a rules file's size. */
const MAX_PRICE_BODY_BYTES = 2 * MAX_RULES_FILE_BYTES + 1024

/**
 * POST /jobs/{id}/price (a preview: the request's rules or the project's saved ones, nothing
 * kept) and POST /jobs/{id}/reprice (the project's saved rules and classification: the job's new
 * bill of record, its files kept in place of the old ones, naming their versions). Both price
 * the job's kept bill; only the job's owner may, and only while they can still see the job's
 * project (its saved rules are read as the rules routes do).
 */
export function priceRoutes(options: PriceRoutesOptions): Hono {
  const { store, cloud, withCloud, visibleProject, bills, heavy } = options
  const tables = options.rules
  const routes = new Hono()

  routes.post(
    '/jobs/:id/price',
    limitBody(MAX_PRICE_BODY_BYTES, 'The rules sent to price with are larger than a table can be.'),
    async (c) => {
      const job = await ownJob(c)
      const request = checkedBody(PriceRequestSchema, await c.req.text(), { where: rowNamed })
      // The tables sent are checked, and the bill priced, in the bill pool: both count as the
      // person's one heavy request.
      const { json } = await heavy.one(job.userId, async () => {
        const [rules, classification, settings] = await Promise.all([
          given(bills, 'rules', request.rules) ?? saved(job, 'rules'),
          given(bills, 'classification', request.classification) ?? saved(job, 'classification'),
          savedSettings(job),
        ])
        return priceJob(bills, store, job, rules, classification, undefined, settings)
      })
      return jsonBody(c, json)
    },
  )

  routes.post('/jobs/:id/reprice', limitBody(1024, 'The request body is too large.'), async (c) => {
    const job = await ownJob(c)
    const writeBack = checkedBody(RepriceRequestSchema, await c.req.text()).writeBack === true
    const [rules, classification, settings] = await Promise.all([
      saved(job, 'rules'),
      saved(job, 'classification'),
      savedSettings(job),
    ])
    // Priced and made into the job's files from one read of the bill, the workbook's Changes
    // sheet against the earlier version as the job's own workbook has it.
    const earlier =
      job.fileVersionNumber !== undefined
        ? await findEarlierBill(store, job, job.fileVersionNumber)
        : undefined
    const priced = await heavy.one(job.userId, () =>
      priceJob(bills, store, job, rules, classification, { earlier }, settings),
    )
    if (!priced.files) throw new Error('The bill’s files were not written.')
    const { xlsx, csv, json, part, warnings, comparedWith, changedLines } = priced.files
    const written = writeBack
      ? await withCloud(c, (ctx) => writeBackAgain(cloud, ctx, job, xlsx))
      : undefined
    // Kept once what was asked has been done: a failed write-back keeps nothing.
    await store.keepBillOfRecord(job.id, {
      pricedWith: {
        // The zones are the kept bill's: the locations it was measured with stay its own.
        ...(job.pricedWith?.locationsVersion
          ? { locationsVersion: job.pricedWith.locationsVersion }
          : {}),
        rulesVersion: rules.version ?? 0,
        classificationVersion: classification.version ?? 0,
        settingsVersion: settings.version,
      },
      files: { xlsx, csv, json, part },
      result: {
        ...keptWarnings(warnings),
        ...(comparedWith ? { comparedWith } : {}),
        ...(changedLines === null ? {} : { changedLines }),
      },
      ...(written
        ? { written: { itemId: written.itemId, versionNumber: written.versionNumber } }
        : {}),
    })
    return jsonBody(c, written ? withWritten(priced.json, written) : priced.json)
  })

  /**
   * The job when it belongs to the signed-in user and they can still see its project; another
   * user's job is as unknown as a missing one, and a project they no longer see is a 404 as the
   * rules routes answer it.
   */
  async function ownJob(c: Context): Promise<JobRecord> {
    return withCloud(c, async (ctx) => {
      const job = await userJob(store, ctx.user.userId, c.req.param('id'))
      await visibleProject(ctx, job.projectId)
      return job
    })
  }

  /** The project's saved table (version 0, empty, when none was saved). */
  async function saved<K extends RulesKind>(
    job: JobRecord,
    kind: K,
  ): Promise<PriceWith<RowsOf[K][number]>> {
    const table = await tables.rules(job.projectId, kind)
    return { rows: (table?.rows ?? []) as RowsOf[K][number][], version: table?.version ?? 0 }
  }

  /** The project's current bill settings (none saved: version 0, no settings). */
  async function savedSettings(job: JobRecord): Promise<SettingsWith> {
    const current = await tables.billSettings(job.projectId)
    return { settings: current?.settings ?? {}, version: current?.version ?? 0 }
  }

  return routes
}

/** The request's own table, checked as a saved one would be (400 naming the row). */
function given<K extends RulesKind>(
  bills: BillPool,
  kind: K,
  list: unknown[] | undefined,
): Promise<PriceWith<RowsOf[K][number]>> | undefined {
  if (list === undefined) return undefined
  return checkedList(bills, kind, list).then((rows) => ({
    rows: rows as RowsOf[K][number][],
    version: null,
  }))
}

/** A JSON answer written in the bill pool, sent as it is. */
function jsonBody(c: Context, json: Uint8Array): Response {
  noStore(c)
  return c.body(json as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json' })
}

/**
 * The priced answer with what was written back as its first field: the answer's JSON object is
 * opened, not parsed again (it may be megabytes).
 */
function withWritten(json: Uint8Array, written: WrittenBack): Uint8Array {
  const head = new TextEncoder().encode(`{"written":${JSON.stringify(written)},`)
  const out = new Uint8Array(head.length + json.length - 1)
  out.set(head)
  out.set(json.subarray(1), head.length)
  return out
}

/** Where a body's issue is: a table's row by its number, as the rules checks name it. */
function rowNamed(path: string[]): string {
  const [table, index, ...rest] = path
  const row = Number(index)
  return (table === 'rules' || table === 'classification') && Number.isInteger(row)
    ? `${table === 'rules' ? 'Row' : 'Classification row'} ${row + 1}${rest.length > 0 ? `, ${rest.join('.')}` : ''}`
    : path.join('.') || 'The body'
}
