import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbeddedRulesStore } from '../../rules/store/embedded-store.ts'
import type { RulesStore } from '../../rules/store/types.ts'

/**
 * An embedded rules store of a test's own, in a fresh temporary folder named after `prefix`:
 * closing the store removes the folder too.
 */
export async function openTempRulesStore(prefix: string): Promise<RulesStore> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const store = openEmbeddedRulesStore({ dataDir, log: () => {} })
  return {
    ...store,
    async close() {
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
