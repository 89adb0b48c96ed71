import type { SecretKeys } from '../../auth/keys.ts'
import type { AuthProvider } from '../../auth/types.ts'
import { createBackends } from '../../backends.ts'
import type { Config } from '../../config.ts'
import { signIn, type TestClient } from '../../testing/client.ts'

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
