import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const bigCloud = {
  hub: 'Bench hub',
  project: 'Bench project',
  folder: 'Big folder',
  itemName: (index: number) => `drawing-${String(index).padStart(5, '0')}.dwg`,
}

/**
 * A data folder whose local cloud is one hub, one project and one folder of `count` tiny files
 * (names only matter: nothing reads them). Pass it to `startServer({ dataDir })`; being
 * non-empty, the cloud is not seeded. The caller removes it.
 */
export function makeBigCloud(count: number): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'boq-big-folder-'))
  const folderDir = join(dataDir, 'cloud', bigCloud.hub, bigCloud.project, bigCloud.folder)
  mkdirSync(folderDir, { recursive: true })
  for (let index = 0; index < count; index++) {
    writeFileSync(join(folderDir, bigCloud.itemName(index)), 'x')
  }
  return dataDir
}
