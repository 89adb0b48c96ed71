import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbeddedWatchStore } from '../../watches/store/embedded-store.ts'
import type { WatchStore } from '../../watches/store/types.ts'
import { TEST_TOKEN_KEY } from '../jobs/fakes.ts'

/**
 * An embedded watch store of a test's own, in a fresh temporary folder named after `prefix`:
 * closing the store removes the folder too.
 */
export async function openTempWatchStore(prefix: string): Promise<WatchStore> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const store = await openEmbeddedWatchStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
  return {
    ...store,
    async close() {
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
