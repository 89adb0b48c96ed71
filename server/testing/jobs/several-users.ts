import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SecretKeys } from '../../auth/keys.ts'
import type { AuthProvider } from '../../auth/types.ts'
import { createBackends } from '../../backends.ts'
import { type Config, loadConfig } from '../../config.ts'
import { signIn, type TestClient } from '../client.ts'
import { startTestServer, type TestServer } from '../start-test-server.ts'

/**
 * Local mode has one user; jobs are per user. These back ends sign in whoever `signInAs` names:
 * the local provider, with the profile swapped at the callback (tests and benches only).
 */
export function severalUsersBackends(config: Config) {
  let next = 'ann'
  return {
    backends(keys: SecretKeys) {
      const backends = createBackends(config, keys)
      const auth: AuthProvider = {
        ...backends.auth,
        async profile() {
          return { userId: `test-${next}`, name: next, picture: '' }
        },
      }
      return { ...backends, auth }
    },
    /** Signs in to the server at `url` as `name`. */
    async signInAs(url: string, name: string): Promise<TestClient> {
      next = name
      return signIn(url)
    },
  }
}

/**
 * A real server on loopback, over a fresh data folder named after `prefix` and seeded from
 * `seedDir`, whose sign-in takes whoever `signInAs` names. The test removes the data folder.
 */
export async function startSeveralUsersServer(
  prefix: string,
  seedDir: string,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; signInAs(url: string, name: string): Promise<TestClient> }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const config = loadConfig({
    BOQ_DATA_DIR: dataDir,
    BOQ_USER_NAME: 'Test User',
    BOQ_SEED_DIR: '',
    // The seeded drawings are whole as written, as the test server takes them.
    BOQ_SETTLE_SECONDS: '0',
  })
  const users = severalUsersBackends(config)
  const server = await startTestServer({ dataDir, env, seed: seedDir, backends: users.backends })
  return { server, signInAs: users.signInAs }
}
