import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { MAX_RULES_FILE_BYTES } from '../../contract/takeoff-rules.ts'
import type { CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { type PriceWith, priceJob } from './priced-job.ts'
import { checkedList } from './rules-body.ts'
import type { JobRecord, JobStore, RowsOf, RulesKind } from './types.ts'

export interface PriceRoutesOptions {
  store: JobStore
  withCloud: <T>(c: Context, fn: (ctx: CloudContext) => Promise<T>) => Promise<T>
}

/** A preview's body holds both tables, each up to a rules file's size. */
const MAX_PRICE_BODY_BYTES = 2 * MAX_RULES_FILE_BYTES + 1024

/**
 * POST /jobs/{id}/price (a preview: the request's rules or the project's saved ones, nothing
 * kept) and POST /jobs/{id}/reprice (the project's saved rules and classification, whose
 * versions the job records). Both price the job's kept bill; only the job's owner may.
 */
export function priceRoutes(options: PriceRoutesOptions): Hono {
  const { store, withCloud } = options
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
      const request = requestOf(await c.req.text())
      const [rules, classification] = await Promise.all([
        given('rules', request.rules) ?? saved(job, 'rules'),
        given('classification', request.classification) ?? saved(job, 'classification'),
      ])
      c.header('Cache-Control', 'no-store')
      return c.json(await priceJob(store, job, rules, classification))
    },
  )

  routes.post('/jobs/:id/reprice', async (c) => {
    const job = await ownJob(c)
    const [rules, classification] = await Promise.all([
      saved(job, 'rules'),
      saved(job, 'classification'),
    ])
    const priced = await priceJob(store, job, rules, classification)
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
    return c.json(priced)
  })

  /** The job when it belongs to the signed-in user; another user's job is as unknown as a missing one. */
  async function ownJob(c: Context): Promise<JobRecord> {
    const userId = await withCloud(c, async (ctx) => ctx.user.userId)
    const id = c.req.param('id')
    const job = id ? await store.get(id) : undefined
    if (!job || job.userId !== userId) throw new AppError(404, 'There is no such job.')
    return job
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

function requestOf(text: string): { rules?: unknown[]; classification?: unknown[] } {
  if (text.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AppError(400, 'The body is not JSON.')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError(400, 'The body must be {"rules"?: [...], "classification"?: [...]}.')
  }
  const { rules, classification } = body as Record<string, unknown>
  for (const [key, value] of Object.entries({ rules, classification })) {
    if (value !== undefined && !Array.isArray(value)) {
      throw new AppError(400, `${key} must be a list of rows.`)
    }
  }
  return {
    rules: rules as unknown[] | undefined,
    classification: classification as unknown[] | undefined,
  }
}
