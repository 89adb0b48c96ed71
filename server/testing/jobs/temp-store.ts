import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbeddedJobStore } from '../../jobs/embedded-store.ts'
import type { JobStore } from '../../jobs/types.ts'
import { TEST_TOKEN_KEY } from './fakes.ts'

/**
 * An embedded job store of a test's own, in a fresh temporary folder named after `prefix`:
 * closing the store removes the folder too.
 */
export async function openTempJobStore(prefix: string): Promise<JobStore> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const store = await openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
  return {
    ...store,
    async close() {
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
