import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { keptPricings } from './kept-pricings.ts'
import { projectPlaces } from './project-place.ts'
import { billRoutes } from './routes.ts'
import type { BillStore } from './types.ts'

export interface ProjectBillsService {
  /** The project bills' API, to mount under /api/boq. */
  routes: Hono
  close(): Promise<void>
}

/**
 * The project bills' routes, which assemble a bill from the job store's kept results (each job's
 * part of a project bill, kept with its bill of record; priced in `pool`, the project bills' lane
 * of the server's worker pool, when the tables changed since), keeping bills, issues and the
 * parts priced again in `bills`.
 */
export async function startProjectBills(options: {
  bills: BillStore
  jobs: JobStore
  /** The projects' saved rules and classification, each drawing priced with them. */
  rules: RulesStore
  cloud: CloudBackend
  access: CloudAccess
  pool: BillPool
}): Promise<ProjectBillsService> {
  const { bills, pool } = options
  // One memory of the parts and of the bills summed, for every request of this process.
  const kept = keptPricings()
  const routes = billRoutes({
    bills,
    jobs: options.jobs,
    rules: options.rules,
    cloud: options.cloud,
    pool,
    projectPlace: projectPlaces(options.cloud),
    kept,
    withCloud: (c, fn) => options.access.run(c, fn),
  })
  return {
    routes,
    async close() {
      // The store is closed with the others (server/stores.ts), the pool by the server.
    },
  }
}
