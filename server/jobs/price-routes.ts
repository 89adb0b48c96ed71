import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import { MAX_RULES_FILE_BYTES, type PricedBill } from '../../contract/takeoff-rules.ts'
import { PriceRequestSchema, RepriceRequestSchema } from '../../contract/takeoff-rules-api.ts'
import { renderFiles } from '../boq/files.ts'
import type { Boq } from '../boq/schema.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { findEarlierBill } from './earlier-bill.ts'
import { keptBill, type PriceWith, priceJob } from './priced-job.ts'
import type { VisibleProject } from './project-access.ts'
import { checkedList } from './rules-body.ts'
import type { JobRecord, JobStore, RowsOf, RulesKind } from './types.ts'
import { userJob } from './user-job.ts'
import { type WrittenBack, writeBackAgain } from './write-back.ts'

export interface PriceRoutesOptions {
  store: JobStore
  cloud: CloudBackend
  withCloud: <T>(c: Context, fn: (ctx: CloudContext) => Promise<T>) => Promise<T>
  /** The project's rules are read only by a user who can still see the project (404 else). */
  visibleProject: VisibleProject
}

/** A preview's body holds both tables, each up to a rules file's size. */
const MAX_PRICE_BODY_BYTES = 2 * MAX_RULES_FILE_BYTES + 1024

/**
 * POST /jobs/{id}/price (a preview: the request's rules or the project's saved ones, nothing
 * kept) and POST /jobs/{id}/reprice (the project's saved rules and classification, whose
 * versions the job records). Both price the job's kept bill; only the job's owner may, and only
 * while they can still see the job's project (its saved rules are read as the rules routes do).
 */
export function priceRoutes(options: PriceRoutesOptions): Hono {
  const { store, cloud, withCloud, visibleProject } = options
  const routes = new Hono()

  routes.post(
    '/jobs/:id/price',
    bodyLimit({
      maxSize: MAX_PRICE_BODY_BYTES,
      onError: () => {
        throw new AppError(413, 'The rules sent to price with are larger than a table can be.')
      },
    }),
    async (c) => {
      const job = await ownJob(c)
      const request = bodyOf(PriceRequestSchema, await c.req.text())
      const [rules, classification] = await Promise.all([
        given('rules', request.rules) ?? saved(job, 'rules'),
        given('classification', request.classification) ?? saved(job, 'classification'),
      ])
      const bill = await keptBill(store, job, 'price')
      c.header('Cache-Control', 'no-store')
      return c.json(priceJob(job, bill, rules, classification))
    },
  )

  routes.post('/jobs/:id/reprice', bodyLimit({ maxSize: 1024, onError: tooLarge }), async (c) => {
    const job = await ownJob(c)
    const writeBack = bodyOf(RepriceRequestSchema, await c.req.text()).writeBack === true
    const [rules, classification] = await Promise.all([
      saved(job, 'rules'),
      saved(job, 'classification'),
    ])
    // Read once: priced, then (when asked) made into the workbook written back.
    const bill = await keptBill(store, job, 'price')
    const priced = priceJob(job, bill, rules, classification)
    const written = writeBack ? await writeWorkbook(c, job, bill, priced.priced) : undefined
    // Recorded once what was asked has been done: a failed write-back records nothing.
    const pricedWith = {
      rulesVersion: rules.version ?? 0,
      classificationVersion: classification.version ?? 0,
    }
    // Re-pricing with the same versions again changes nothing on the job: no write.
    const same =
      job.pricedWith?.rulesVersion === pricedWith.rulesVersion &&
      job.pricedWith.classificationVersion === pricedWith.classificationVersion
    if (!same) await store.notePricedWith(job.id, pricedWith)
    c.header('Cache-Control', 'no-store')
    return c.json(written ? { ...priced, written } : priced)
  })

  /**
   * The job's workbook made again with its priced bill first (and its Changes sheet against the
   * earlier version, as the job's own had), written as the result's next version beside the
   * drawing with the signed-in user's access. Written on the request's thread.
   */
  async function writeWorkbook(
    c: Context,
    job: JobRecord,
    measured: Boq,
    priced: PricedBill,
  ): Promise<WrittenBack> {
    const earlier =
      job.fileVersionNumber === undefined
        ? undefined
        : await findEarlierBill(store, job, job.fileVersionNumber)
    const { files } = await renderFiles(measured, ['xlsx'], earlier, priced)
    const xlsx = files.xlsx
    if (!xlsx) throw new Error('The workbook was not written.')
    return withCloud(c, (ctx) => writeBackAgain(cloud, ctx, job, xlsx))
  }

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
    const table = await store.rules(job.projectId, kind)
    return { rows: (table?.rows ?? []) as RowsOf[K][number][], version: table?.version ?? 0 }
  }

  return routes
}

/** The request's own table, checked as a saved one would be (400 naming the row). */
function given<K extends RulesKind>(
  kind: K,
  list: unknown[] | undefined,
): Promise<PriceWith<RowsOf[K][number]>> | undefined {
  if (list === undefined) return undefined
  return checkedList(kind, list).then((rows) => ({
    rows: rows as RowsOf[K][number][],
    version: null,
  }))
}

function tooLarge(): never {
  throw new AppError(413, 'The request body is too large.')
}

/**
 * A JSON body read with its contract schema (an empty body is `{}`): 400 saying what is wrong,
 * a table's row by its number as the rules checks name it.
 */
function bodyOf<S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> {
  let body: unknown = {}
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      throw new AppError(400, 'The body is not JSON.')
    }
  }
  const result = v.safeParse(schema, body)
  if (result.success) return result.output
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key))
  const [table, index, ...rest] = path
  const row = Number(index)
  const where =
    (table === 'rules' || table === 'classification') && Number.isInteger(row)
      ? `${table === 'rules' ? 'Row' : 'Classification row'} ${row + 1}${rest.length > 0 ? `, ${rest.join('.')}` : ''}`
      : path.join('.') || 'The body'
  throw new AppError(400, `${where}: ${issue.message}.`)
}
