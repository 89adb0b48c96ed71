import { mkdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../lib/atomic-write.ts'

/**
 * Session ids that were ended (logout, a refused refresh): a cookie carrying one no longer works,
 * even a copy kept from before. One file store serves one process; several processes behind a
 * load balancer need a shared implementation of this interface.
 */
export interface SessionRevocations {
  /** `until`: epoch ms after which no cookie with this id can be valid anyway (then it is pruned). */
  revoke(id: string, until: number): Promise<void>
  isRevoked(id: string): Promise<boolean>
}

const FILE = 'revoked-sessions.json'

/**
 * `BOQ_DATA_DIR/revoked-sessions.json`: `{ "<id>": <until, epoch ms> }`, written atomically and
 * pruned of expired ids on every write. Kept in memory and read again when the file was replaced
 * (a restart, or another process on the same data folder).
 */
export function createFileRevocations(dataDir: string): SessionRevocations {
  const path = join(dataDir, FILE)
  let revoked = new Map<string, number>()
  let loadedFrom: string | undefined
  // Writes one after another, so two logouts cannot lose each other's id.
  let writing: Promise<void> = Promise.resolve()

  async function refresh(): Promise<void> {
    let version: string
    try {
      const info = await stat(path)
      version = `${info.ino}:${info.mtimeMs}:${info.size}`
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      throw error
    }
    if (version === loadedFrom) return
    revoked = parse(await readFile(path, 'utf8'))
    loadedFrom = version
  }

  return {
    async isRevoked(id) {
      await refresh()
      const until = revoked.get(id)
      return until !== undefined && until > Date.now()
    },
    revoke(id, until) {
      const write = writing.then(async () => {
        await refresh()
        const now = Date.now()
        for (const [known, end] of revoked) if (end <= now) revoked.delete(known)
        revoked.set(id, Math.max(until, revoked.get(id) ?? 0))
        await mkdir(dataDir, { recursive: true })
        await writeFileAtomic(path, `${JSON.stringify(Object.fromEntries(revoked))}\n`)
      })
      writing = write.catch(() => {})
      return write
    },
  }
}

function parse(text: string): Map<string, number> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  // Never half-written (atomic writes): a file like this was edited by hand. Refusing every
  // session is safer than forgetting which were ended.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(
      `${FILE} is not a JSON object; fix or delete it (deleting it un-revokes sessions).`,
    )
  }
  const map = new Map<string, number>()
  for (const [id, until] of Object.entries(value)) {
    if (typeof until === 'number') map.set(id, until)
  }
  return map
}
