import { copyFile, mkdir, readdir, stat, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError } from '../config.ts'

/** The demo cloud: one hub, two projects, a few folders (paths relative to the cloud folder). */
export const DEMO_HUB = 'Demo Hub'
export const DEMO_FOLDERS = [
  `${DEMO_HUB}/Harbour Residences/Project Files`,
  `${DEMO_HUB}/Harbour Residences/Project Files/Architecture`,
  `${DEMO_HUB}/Harbour Residences/Project Files/Structure`,
  `${DEMO_HUB}/Harbour Residences/Shared`,
  `${DEMO_HUB}/Riverside Offices/Project Files`,
  `${DEMO_HUB}/Riverside Offices/Project Files/Survey`,
  `${DEMO_HUB}/Riverside Offices/Shared`,
]
/** Put first, into the first folder of the first project, so the shortest path through the tree reaches it. */
export const FEATURED_DRAWING = 'example_2018.dwg'

export interface SeedResult {
  seeded: boolean
  /** Cloud-relative paths of the drawings copied in. */
  files: string[]
}

/**
 * On first start (no visible entry in the cloud folder) creates the demo hub and copies every
 * `.dwg` of seedDir into its folders, spread evenly. A cloud with anything in it is left alone.
 */
export async function seedIfEmpty(cloudRoot: string, seedDir: string | null): Promise<SeedResult> {
  await mkdir(cloudRoot, { recursive: true })
  const existing = (await readdir(cloudRoot)).filter((name) => !name.startsWith('.'))
  if (existing.length > 0) return { seeded: false, files: [] }

  const drawings = seedDir === null ? [] : await listDrawings(seedDir)
  for (const folder of DEMO_FOLDERS)
    await mkdir(join(cloudRoot, ...folder.split('/')), { recursive: true })
  const files: string[] = []
  for (const [index, name] of drawings.entries()) {
    const folder = DEMO_FOLDERS[index % DEMO_FOLDERS.length] as string
    const from = join(seedDir as string, name)
    const to = join(cloudRoot, ...folder.split('/'), name)
    await copyFile(from, to)
    // The copy is whole: it keeps its source's times, so the cloud does not wait for it to settle
    // as it waits for a file still being copied in by hand.
    const source = await stat(from)
    await utimes(to, source.atime, source.mtime)
    files.push(`${folder}/${name}`)
  }
  return { seeded: true, files }
}

async function listDrawings(seedDir: string): Promise<string[]> {
  const info = await stat(seedDir).catch(() => undefined)
  if (!info?.isDirectory()) {
    throw new ConfigError(
      `BOQ_SEED_DIR: ${seedDir} is not a folder (set BOQ_SEED_DIR= to start without drawings).`,
    )
  }
  const names = (await readdir(seedDir, { withFileTypes: true }))
    .filter((d) => d.isFile() && d.name.toLowerCase().endsWith('.dwg') && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b))
  const featured = names.indexOf(FEATURED_DRAWING)
  if (featured > 0) names.unshift(...names.splice(featured, 1))
  return names
}
