/**
 * A LocalCloud in a process of its own, for tests of several processes on one cloud folder:
 * `node cloud-process.ts <root>`, started with an IPC channel. It says `{ ready: true }`, then
 * answers each `{ id, request }` with `{ id, result }` or `{ id, error }`.
 * - `upload`: uploads `texts` one after another as versions of `fileName`; the numbers given.
 * - `list`: lists a folder once (which records what was written there by hand).
 * - `watch`: lists the versions of `fileName` `times` times, downloading each version; the
 *   problems seen (numbers not n…1, a version not read, bytes repeated or not among `allowed`).
 */
import type { UserProfile } from '../../../auth/types.ts'
import { makeId } from '../../../cloud/local/ids.ts'
import { createLocalCloud } from '../../../cloud/local/local-cloud.ts'
import type { JsonApiResource } from '../../../cloud/types.ts'

export type CloudRequest =
  | { op: 'upload'; folder: string; fileName: string; texts: string[] }
  | { op: 'list'; folder: string }
  | { op: 'watch'; folder: string; fileName: string; times: number; allowed: string[] }

const [root] = process.argv.slice(2)
if (!root || !process.send) throw new Error('Usage: node cloud-process.ts <root>, with IPC')
const send = process.send.bind(process)
// Files the tests write by hand are whole as written: recorded at the first listing that meets them.
const cloud = createLocalCloud({
  root,
  localUserName: `Local Person ${process.pid}`,
  settle: { settleMs: 0 },
})
const ctx = {
  user: { userId: `u-${process.pid}`, name: `Writer ${process.pid}`, picture: '' } as UserProfile,
  accessToken: 'x',
}
/** `folder` is `<hub>/<project>/<folders…>`. */
const place = (folder: string) => {
  const [hub = '', project = ''] = folder.split('/')
  return {
    hubId: makeId('hub', hub),
    projectId: makeId('project', `${hub}/${project}`),
    folderId: makeId('folder', folder),
  }
}
const storageOf = (version: JsonApiResource) => version.relationships?.storage?.data?.id as string

async function upload(folder: string, fileName: string, texts: string[]): Promise<number[]> {
  const numbers: number[] = []
  for (const text of texts) {
    const { projectId, folderId } = place(folder)
    const bytes = new TextEncoder().encode(text)
    const written = await cloud.upload(ctx, { projectId, folderId, fileName, bytes })
    numbers.push(written.versionNumber)
  }
  return numbers
}

async function watch(folder: string, fileName: string, times: number, allowed: string[]) {
  const { hubId, projectId } = place(folder)
  const itemId = makeId('item', `${folder}/${fileName}`)
  const problems: string[] = []
  for (let i = 0; i < times; i++) {
    const versions = await cloud.versions(ctx, hubId, projectId, itemId)
    const numbers = versions.map((v) => v.attributes.versionNumber)
    const expected = numbers.map((_, at) => numbers.length - at)
    if (numbers.join() !== expected.join()) problems.push(`numbers ${numbers.join()}`)
    const texts = await Promise.all(
      versions.map((v) =>
        cloud.download(ctx, projectId, storageOf(v)).then(
          (bytes) => new TextDecoder().decode(bytes),
          (error: Error) => `version ${v.attributes.versionNumber}: ${error.message}`,
        ),
      ),
    )
    if (new Set(texts).size !== texts.length) problems.push(`bytes repeated: ${texts.join('|')}`)
    for (const text of texts) if (!allowed.includes(text)) problems.push(`unknown bytes: ${text}`)
  }
  return problems
}

async function answer(request: CloudRequest): Promise<unknown> {
  switch (request.op) {
    case 'upload':
      return upload(request.folder, request.fileName, request.texts)
    case 'list': {
      const { hubId, projectId, folderId } = place(request.folder)
      return (await cloud.contents(ctx, hubId, projectId, folderId)).length
    }
    case 'watch':
      return watch(request.folder, request.fileName, request.times, request.allowed)
  }
}

process.on('message', ({ id, request }: { id: number; request: CloudRequest }) => {
  answer(request).then(
    (result) => send({ id, result }),
    (error: Error) => send({ id, error: error.stack ?? String(error) }),
  )
})
send({ ready: true })
