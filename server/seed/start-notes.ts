import { join } from 'node:path'
import { DEMO_FOLDERS, type SeedResult } from './seed.ts'

export interface StartNotesInput {
  /** Absolute path of the local cloud folder. */
  cloudRoot: string
  /** What seeding did on this start (seeded: false when the cloud already had content). */
  seed: SeedResult
  /** BOQ_SEED_DIR as configured: null when there is no seed folder. */
  seedDir: string | null
  /** The demo's first folder when it exists (the shortest way to a drawing in the tree). */
  dropFolder: string | null
}

/** The demo's first folder: Demo Hub/Harbour Residences/Project Files. */
export function demoDropFolder(cloudRoot: string): string {
  return join(cloudRoot, ...(DEMO_FOLDERS[0] as string).split('/'))
}

/**
 * The two lines a local-mode start prints: where the cloud folder is and how to add drawings,
 * saying plainly when the demo cloud was just created without any.
 */
export function startNotes(input: StartNotesInput): string[] {
  const { cloudRoot, seed, seedDir } = input
  const count = seed.files.length
  const state = !seed.seeded
    ? ''
    : count > 0
      ? `, created now with the demo hub and ${count} drawing(s) from ${seedDir}`
      : `, created now with the demo hub and no drawings (${
          seedDir === null ? 'no seed folder: BOQ_SEED_DIR' : `${seedDir} has no .dwg files`
        })`
  const target =
    input.dropFolder ??
    `a folder of a project, ${join(cloudRoot, '<hub>', '<project>', '<folder>')}`
  return [
    `Local cloud: ${cloudRoot}${state}.`,
    `To add drawings, drop .dwg files into ${target}, or upload them in the app.`,
  ]
}
