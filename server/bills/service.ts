import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { keptPricings } from './kept-pricings.ts'
import { partsOnJobEnd } from './parts-on-job-end.ts'
import { projectPlaces } from './project-place.ts'
import { billRoutes } from './routes.ts'
import type { BillStore } from './types.ts'

export interface ProjectBillsService {
  /** The project bills' API, to mount under /api/boq. */
  routes: Hono
  close(): Promise<void>
}

/**
 * The project bills' routes, which assemble a bill from the job store's kept results (priced in
 * `pool`: the project bills' lane of the server's worker pool), keeping bills and issues in `bills`;
 * and each drawing's part of them made when its job ends in this process, before it is asked for.
 */
export async function startProjectBills(options: {
  bills: BillStore
  jobs: JobStore
  /** The projects' saved rules and classification, each drawing priced with them. */
  rules: RulesStore
  cloud: CloudBackend
  access: CloudAccess
  pool: BillPool
  /** Tells of each job of this process that ended. */
  jobEnded: { add(listener: (job: JobRecord) => void): () => void }
}): Promise<ProjectBillsService> {
  const { bills, pool } = options
  // One memory of the parts for the routes and the parts made as jobs end.
  const kept = keptPricings()
  const made = partsOnJobEnd({ store: options.jobs, bills, rules: options.rules, pool, kept })
  const unsubscribe = options.jobEnded.add(made.jobEnded)
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
      unsubscribe()
      await made.close()
      // The store is closed with the others (server/stores.ts), the pool by the server.
    },
  }
}
