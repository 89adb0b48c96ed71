import { copyFile, mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CloudList } from '#contract/cloud.ts'
import { FIXTURES } from '../boq/fixtures.ts'

/** When the seed's drawings were last written: long ago, so the cloud takes them as whole at once. */
const WRITTEN_LONG_AGO = new Date('2020-01-01T00:00:00Z')

/**
 * A seed folder for a test server: the given fixtures, plus `broken.dwg` (the first 16 KB of
 * example_2018.dwg: a DWG header, then nothing) when asked. The copies are dated long ago: the
 * seed keeps its files' times, and a drawing written just now would still be settling (a copy by
 * hand in progress) when the test extracts it.
 */
export async function makeSeedDir(fixtures: string[], options: { broken?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'boq-jobs-seed-'))
  for (const name of fixtures) await copyFile(join(FIXTURES, name), join(dir, name))
  if (options.broken) {
    const bytes = await readFile(join(FIXTURES, 'example_2018.dwg'))
    await writeFile(join(dir, 'broken.dwg'), bytes.subarray(0, 16 * 1024))
  }
  for (const name of [...fixtures, ...(options.broken ? ['broken.dwg'] : [])]) {
    await utimes(join(dir, name), WRITTEN_LONG_AGO, WRITTEN_LONG_AGO)
  }
  return dir
}

type GetJson = <T>(path: string) => Promise<T>

export interface DrawingRef {
  hubId: string
  projectId: string
  folderId: string
  itemId: string
  /** The newest version's storage id. */
  storageId: string
  fileName: string
}

/** Walks hubs → projects → folders (as the app does) to every item whose display name matches. */
export async function findItems(
  getJson: GetJson,
  match: (name: string) => boolean,
): Promise<DrawingRef[]> {
  const found: DrawingRef[] = []
  const list = (path: string) => getJson<CloudList>(path)
  for (const hub of await list('/api/aps/hubs')) {
    const hubPath = `/api/aps/hubs/${encodeURIComponent(hub.id)}`
    for (const project of await list(`${hubPath}/projects`)) {
      const contents = `${hubPath}/projects/${encodeURIComponent(project.id)}/contents`
      const walk = async (folderId: string | undefined): Promise<void> => {
        const query = folderId ? `?folder_id=${encodeURIComponent(folderId)}` : ''
        for (const entry of await list(contents + query)) {
          if (entry.type === 'folders') await walk(entry.id)
          const name = String(entry.attributes.displayName ?? entry.attributes.name ?? '')
          if (entry.type !== 'items' || !folderId || !match(name)) continue
          const versions = await list(`${contents}/${encodeURIComponent(entry.id)}/versions`)
          const storageId = versions[0]?.relationships?.storage?.data?.id
          if (!storageId) throw new Error(`No storage id on the versions of ${name}`)
          found.push({
            hubId: hub.id,
            projectId: project.id,
            folderId,
            itemId: entry.id,
            storageId,
            fileName: name,
          })
        }
      }
      await walk(undefined)
    }
  }
  return found
}

export async function findDrawing(getJson: GetJson, name: string): Promise<DrawingRef> {
  const [found] = await findItems(getJson, (n) => n === name)
  if (!found) throw new Error(`${name} is not in the cloud`)
  return found
}
