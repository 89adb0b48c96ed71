import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import { readClassification, readRules } from '../boq/price/read.ts'
import { makeId } from '../cloud/local/ids.ts'
import { FEATURED_DRAWING, type SeedResult } from './seed.ts'

/**
 * The demo project's example takeoff rules and classification: two CSV files beside this module,
 * written for the demo drawings, read and checked by the same reader as a file a person uploads
 * (and usable as such, or with the command line's --rules and --classification).
 */

export const EXAMPLE_RULES_FILE = join(import.meta.dirname, 'example-rules.csv')
export const EXAMPLE_CLASSIFICATION_FILE = join(import.meta.dirname, 'example-classification.csv')

/** Who the rules page says saved the example tables. */
export const EXAMPLE_SAVED_BY = 'BOQ example'

export interface ExampleTables {
  rules: TakeoffRule[]
  classification: ClassificationEntry[]
}

/** Both example tables, read and checked; throws a RulesError naming the rows if either is wrong. */
export async function readExampleTables(): Promise<ExampleTables> {
  const [rules, classification] = await Promise.all([
    readFile(EXAMPLE_RULES_FILE).then((bytes) => readRules(bytes, 'csv')),
    readFile(EXAMPLE_CLASSIFICATION_FILE).then((bytes) => readClassification(bytes, 'csv')),
  ])
  return { rules, classification }
}

/**
 * The local cloud's id of the project the featured drawing was copied into by this seeding, or
 * null when it copied none (a cloud seeded before, an empty or other seed folder).
 */
export function exampleProjectOf(seed: SeedResult): string | null {
  const featured = seed.files.find((path) => path.split('/').pop() === FEATURED_DRAWING)
  if (!featured) return null
  // Cloud paths are hub/project/folder…/file: the project is the first two names.
  return makeId('project', featured.split('/').slice(0, 2).join('/'))
}
