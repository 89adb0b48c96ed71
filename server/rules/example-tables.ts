import { EXAMPLE_SAVED_BY, readExampleTables } from '../seed/example-tables.ts'
import type { RulesStore } from './store/types.ts'

/**
 * Saves the example tables as version 1 of the project's classification and rules, as
 * EXAMPLE_SAVED_BY. A project that already has either table is left as it is (false); so is a
 * table someone else saves first, as two processes starting over one database may.
 */
export async function saveExampleTables(store: RulesStore, projectId: string): Promise<boolean> {
  const [rules, classification] = await Promise.all([
    store.rules(projectId, 'rules'),
    store.rules(projectId, 'classification'),
  ])
  if (rules || classification) return false
  const tables = await readExampleTables()
  // The classification first: a job priced in between would have rules without their titles.
  const savedClassification = await store.saveRules(
    projectId,
    'classification',
    0,
    tables.classification,
    EXAMPLE_SAVED_BY,
  )
  const savedRules = await store.saveRules(projectId, 'rules', 0, tables.rules, EXAMPLE_SAVED_BY)
  return 'saved' in savedClassification || 'saved' in savedRules
}
