import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { Extractor } from '../jobs/extractor.ts'
import type { PerUserLimit } from '../jobs/per-user-limit.ts'
import type { JobStore } from '../jobs/types.ts'
import { log } from '../log.ts'
import { billSettingsRoutes } from './bill-settings-routes.ts'
import { saveExampleTables } from './example-tables.ts'
import { locationsPreviewRoutes } from './locations-preview.ts'
import { locationsRoutes } from './locations-routes.ts'
import { priceRoutes } from './price-routes.ts'
import { projectAccess } from './project-access.ts'
import { rulesRoutes } from './rules-routes.ts'
import type { RulesStore } from './store/types.ts'

/**
 * The projects' takeoff rules, classification, bill settings and locations on their store, and pricing a
 * job with them:
 * their routes, to mount under /api/boq. The demo project just created gets the example tables.
 */
export async function startRules(options: {
  store: RulesStore
  jobs: JobStore
  cloud: CloudBackend
  access: CloudAccess
  /** The jobs' bill pool: tables sent are read, and bills priced, there. */
  bills: BillPool
  /** The jobs' share of heavy requests per person: reading a table and pricing count among them. */
  heavy: PerUserLimit
  /** The jobs' engine: a locations table is tried on a finished job's drawing read again. */
  extractor: Extractor
  /** BOQ_MAX_FILE_MB: a larger drawing is not read again. */
  maxFileBytes: number
  /** The demo project just created, to save the example rules for (see prepareDataDir). */
  exampleProject?: string | null
}): Promise<{ routes: Hono }> {
  const { store, jobs, cloud, bills, heavy } = options
  if (options.exampleProject) await saveExample(store, options.exampleProject)
  const withCloud: Parameters<typeof rulesRoutes>[0]['withCloud'] = (c, fn) =>
    options.access.run(c, fn)
  const visibleProject = projectAccess(cloud)
  const routes = new Hono()
  routes.route('/', rulesRoutes({ store, withCloud, visibleProject, bills, heavy }))
  routes.route('/', billSettingsRoutes({ store, withCloud, visibleProject }))
  routes.route('/', locationsRoutes({ store, withCloud, visibleProject, bills, heavy }))
  routes.route(
    '/',
    locationsPreviewRoutes({
      store: jobs,
      cloud,
      withCloud,
      extractor: options.extractor,
      bills,
      heavy,
      visibleProject,
      maxFileBytes: options.maxFileBytes,
    }),
  )
  routes.route(
    '/',
    priceRoutes({ store: jobs, rules: store, cloud, withCloud, visibleProject, bills, heavy }),
  )
  return { routes }
}

/** Saves the example tables for the demo project; when that fails, the server starts without them. */
async function saveExample(store: RulesStore, projectId: string): Promise<void> {
  try {
    if (await saveExampleTables(store, projectId))
      log.info('demo project: example takeoff rules and classification saved')
  } catch (error) {
    log.warn('demo project: the example takeoff rules could not be saved', { err: error })
  }
}
