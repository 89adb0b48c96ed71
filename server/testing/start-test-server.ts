import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createServer, type ServerParts } from '../app.ts'
import { type Config, loadConfig } from '../config.ts'
import { prepareDataDir } from '../seed/prepare.ts'

export interface TestServerOptions {
  /** Create the demo cloud: true = the drawings of the default seed folder; a path = those drawings. */
  seed?: boolean | string
  /** Use this data folder instead of a fresh temporary one (it is then not removed by close()). */
  dataDir?: string
  /** Environment variables as the server would read them (PORT/HOST/BOQ_DATA_DIR are set here). */
  env?: Record<string, string | undefined>
  /** Changes to the config after it is read (e.g. corsOrigins, distDir). */
  config?: Partial<Config>
  /** Back ends in place of createBackends(config, keys). */
  backends?: ServerParts['backends']
  /** An engine in place of the real one. */
  extractor?: ServerParts['extractor']
  /** Listen on this port (0, the default: any free one); for a URL that must name the server. */
  port?: number
}

export interface TestServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string
  dataDir: string
  config: Config
  close(): Promise<void>
}

/** The real server (createServer + Node adapter) on 127.0.0.1, port 0, with a temporary data folder. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'boq-test-')))
  const seedEnv =
    options.seed === true
      ? {}
      : { BOQ_SEED_DIR: typeof options.seed === 'string' ? options.seed : '' }
  const config: Config = {
    ...loadConfig({
      BOQ_USER_NAME: 'Test User',
      // Files a test writes into the cloud are whole as written (a test of settling sets its own).
      BOQ_SETTLE_SECONDS: '0',
      ...seedEnv,
      ...options.env,
      PORT: String(options.port ?? 0),
      HOST: '127.0.0.1',
      BOQ_DATA_DIR: dataDir,
    }),
    ...options.config,
  }
  const prepared = options.seed ? await prepareDataDir(config) : undefined
  const boq = await createServer(config, {
    backends: options.backends,
    extractor: options.extractor,
    exampleProject: prepared?.exampleProject,
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: boq.app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () =>
      resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    config,
    async close() {
      await new Promise<void>((resolve) => {
        // Never let a stuck socket hang a test run: give up waiting after a few seconds.
        const timer = setTimeout(resolve, 5000)
        server.close(() => {
          clearTimeout(timer)
          resolve()
        })
        ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      await boq.close()
      if (ownDir) await rm(dataDir, { recursive: true, force: true })
    },
  }
}
