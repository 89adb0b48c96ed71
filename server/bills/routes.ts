import { Hono } from 'hono'
import { NewProjectBillSchema, ProjectBillPatchSchema } from '#contract/project-bills.ts'
import { AppError } from '../errors.ts'
import { checkedBody, limitBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import { assembleBill } from './assemble.ts'
import { checkSources } from './bill-drawings.ts'
import { billFile, billFileName, type Download, formatOf, sendFile } from './downloads.ts'
import { issueRoutes } from './issue-routes.ts'
import { keptPricings } from './kept-pricings.ts'
import { type BillRoutesOptions, billFinder, noSuchBill, personOf, unique } from './route-parts.ts'

const MAX_BODY_BYTES = 256 * 1024

/**
 * The project bills under /projects/{projectId}/bills: made, listed, read assembled, changed,
 * deleted, issued and compared, by anyone who can see the project (404 else, as the rules
 * routes answer). A folder or item the person cannot see is a 404, and nothing is made.
 */
export function billRoutes(options: BillRoutesOptions): Hono {
  const { bills, withCloud, projectPlace } = options
  const routes = new Hono()
  const limited = limitBody(MAX_BODY_BYTES, 'The request body is too large for a project bill.')
  const parts = {
    store: options.jobs,
    bills,
    rules: options.rules,
    cloud: options.cloud,
    pool: options.pool,
    kept: options.kept ?? keptPricings(),
  }
  const billOf = billFinder(bills, projectPlace)

  routes.post('/projects/:projectId/bills', limited, async (c) => {
    const projectId = c.req.param('projectId')
    const text = await c.req.text()
    const bill = await withCloud(c, async (ctx) => {
      // Who first (401), then which project (404), then what is asked (400, 404).
      const place = await projectPlace(ctx, projectId)
      const asked = checkedBody(NewProjectBillSchema, text)
      await checkSources(options.cloud, ctx, { ...place, projectId }, asked)
      return bills.create({
        projectId,
        name: asked.name,
        folderIds: unique(asked.folderIds),
        itemIds: unique(asked.itemIds),
        createdBy: personOf(ctx),
      })
    })
    noStore(c)
    return c.json(bill, 201)
  })

  routes.get('/projects/:projectId/bills', async (c) => {
    const projectId = c.req.param('projectId')
    const list = await withCloud(c, async (ctx) => {
      await projectPlace(ctx, projectId)
      return bills.list(projectId)
    })
    noStore(c)
    return c.json(list)
  })

  routes.get('/projects/:projectId/bills/:billId', async (c) => {
    const format = formatOf(c)
    const answer = await withCloud(c, async (ctx): Promise<Download | { json: string }> => {
      const { bill, place } = await billOf(c, ctx)
      const assembled = await assembleBill(parts, ctx, place, bill, {
        withPricedBills: format === 'xlsx',
      })
      if (format === 'json') return { json: assembled.json() }
      const bytes = await billFile(options.pool, format, assembled, null)
      return { file: { bytes, name: bill.name, format } }
    })
    if ('file' in answer) {
      const { bytes, name, format } = answer.file
      return sendFile(c, bytes, format, billFileName(name, format))
    }
    noStore(c)
    return c.body(answer.json, 200, { 'content-type': 'application/json; charset=UTF-8' })
  })

  routes.patch('/projects/:projectId/bills/:billId', limited, async (c) => {
    const text = await c.req.text()
    const patched = await withCloud(c, async (ctx) => {
      const { bill, place } = await billOf(c, ctx)
      const patch = checkedBody(ProjectBillPatchSchema, text)
      await checkSources(options.cloud, ctx, { ...place, projectId: bill.projectId }, patch)
      const folderIds = patch.folderIds && unique(patch.folderIds)
      const itemIds = patch.itemIds && unique(patch.itemIds)
      if ((folderIds ?? bill.folderIds).length + (itemIds ?? bill.itemIds).length === 0) {
        throw new AppError(400, 'A bill needs at least one folder or item.')
      }
      const changed = await bills.patch(bill.projectId, bill.id, {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(folderIds ? { folderIds } : {}),
        ...(itemIds ? { itemIds } : {}),
      })
      return changed ?? noSuchBill()
    })
    noStore(c)
    return c.json(patched)
  })

  routes.delete('/projects/:projectId/bills/:billId', async (c) => {
    await withCloud(c, async (ctx) => {
      const { bill } = await billOf(c, ctx)
      if (!(await bills.delete(bill.projectId, bill.id))) noSuchBill()
    })
    return c.body(null, 204)
  })

  routes.route('/', issueRoutes(options, { parts, billOf, limited }))
  return routes
}
