import type { SavedPricing } from '../jobs/runner.ts'
import type { RulesStore } from './store/types.ts'

/**
 * What a new job's bill is priced with: the project's saved rules, classification and bill
 * settings, and their versions (0: none saved; the bill's header names them); no tables when the
 * project has no rules. With the project's locations (when they have rows) the bill is measured
 * by zone, and `locationsVersion` names them.
 */
export function savedPricing(store: RulesStore) {
  return async (projectId: string): Promise<SavedPricing> => {
    const [rules, classification, settings, locations] = await Promise.all([
      store.rules(projectId, 'rules'),
      store.rules(projectId, 'classification'),
      store.billSettings(projectId),
      store.locations(projectId),
    ])
    const located = locations && locations.rows.length > 0 ? locations : undefined
    const pricedWith = {
      rulesVersion: rules?.version ?? 0,
      classificationVersion: classification?.version ?? 0,
      settingsVersion: settings?.version ?? 0,
      ...(located ? { locationsVersion: located.version } : {}),
    }
    const measuredWith = located ? { locations: located.rows } : {}
    if (!rules || rules.rows.length === 0) return { pricedWith, ...measuredWith }
    return {
      ...measuredWith,
      tables: {
        rules: rules.rows,
        classification: classification?.rows ?? [],
        ...(settings ? { settings: settings.settings } : {}),
        versions: pricedWith,
      },
      pricedWith,
    }
  }
}
