import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { createBillPool } from '../jobs/bill-pool.ts'
import type { JobStore } from '../jobs/types.ts'
import { openEmbeddedBillStore } from './embedded-bill-store.ts'
import { projectPlaces } from './project-place.ts'
import { billRoutes } from './routes.ts'

export interface ProjectBillsService {
  /** The project bills' API, to mount under /api/boq. */
  routes: Hono
  close(): Promise<void>
}

/**
 * The project bills: their store in the data folder, and their routes, which assemble a bill from
 * the job store's kept results (priced in a bill pool of their own: one thread, none while idle).
 */
export async function startProjectBills(options: {
  dataDir: string
  jobs: JobStore
  cloud: CloudBackend
  access: CloudAccess
}): Promise<ProjectBillsService> {
  const bills = await openEmbeddedBillStore({ dataDir: options.dataDir })
  const pool = createBillPool({ threads: 1 })
  const routes = billRoutes({
    bills,
    jobs: options.jobs,
    cloud: options.cloud,
    pool,
    projectPlace: projectPlaces(options.cloud),
    withCloud: (c, fn) => options.access.run(c, fn),
  })
  return {
    routes,
    async close() {
      await pool.close()
      await bills.close()
    },
  }
}
