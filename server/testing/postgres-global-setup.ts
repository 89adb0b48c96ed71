import { postgresBinDir } from '../../scripts/postgres.ts'
import { startPrivatePostgres } from './postgres.ts'

/**
 * Vitest global setup: without BOQ_TEST_DATABASE_URL, a throwaway PostgreSQL for the whole run
 * when the server programs are installed, stopped (and its folder removed) after the run. Setting
 * process.env here reaches the tests: Vitest starts its workers after the global setups, with
 * this process's environment. Without the programs nothing starts, and the tests that need a
 * database fail with the how-to (createTestDatabase).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // Given, or already started by another project's global setup in this run.
  if (process.env.BOQ_TEST_DATABASE_URL) return undefined
  try {
    postgresBinDir()
  } catch {
    return undefined
  }
  const postgres = await startPrivatePostgres()
  process.env.BOQ_TEST_DATABASE_URL = postgres.url
  console.log(
    `PostgreSQL for the tests: ${postgres.url} (in ${postgres.dir}, stopped after the run)`,
  )
  return async () => {
    delete process.env.BOQ_TEST_DATABASE_URL
    await postgres.close()
  }
}
