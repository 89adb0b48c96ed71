import { stat } from 'node:fs/promises'
import { localCloudRoot } from '../cloud/local/local-cloud.ts'
import type { Config } from '../config.ts'
import { exampleProjectOf } from './example-tables.ts'
import { seedIfEmpty } from './seed.ts'
import { demoDropFolder, startNotes } from './start-notes.ts'

/** What preparing the data folder leaves for the server to do once its job store is open. */
export interface PreparedDataDir {
  /**
   * The demo project created on this start with the featured drawing: it gets the example
   * takeoff rules and classification. Null on any later start, with an empty seed folder, or in
   * Autodesk mode.
   */
  exampleProject: string | null
}

/**
 * What local mode needs before the server listens: the demo cloud on first start; `log` gets
 * where drawings go. Fails early with a readable reason.
 */
export async function prepareDataDir(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<PreparedDataDir> {
  if (config.aps) return { exampleProject: null }
  const cloudRoot = localCloudRoot(config.dataDir)
  const seed = await seedIfEmpty(cloudRoot, config.seedDir)
  const demo = demoDropFolder(cloudRoot)
  const dropFolder = (await stat(demo).catch(() => undefined))?.isDirectory() ? demo : null
  for (const line of startNotes({ cloudRoot, seed, seedDir: config.seedDir, dropFolder })) log(line)
  return { exampleProject: exampleProjectOf(seed) }
}
