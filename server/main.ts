import { type ServerType, serve } from '@hono/node-server'
import { type BoqServer, createServer } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { log } from './log.ts'
import { prepareDataDir } from './seed/prepare.ts'

/** `node server/main.ts`: prepares the data folder, then serves app + API. */
async function main(): Promise<void> {
  const config = loadConfig()
  log.setLevel(config.logLevel)
  // Log lines go to stderr: stdout carries only the one "listening" line that scripts parse.
  const { exampleProject } = await prepareDataDir(config, (line) => log.info(line))
  const boq = await createServer(config, { exampleProject })
  if (config.role === 'worker') {
    runWorker(boq)
    return
  }
  const server = serve(
    { fetch: boq.app.fetch, port: config.port, hostname: config.host },
    (info) => {
      const host = info.address.includes(':') ? `[${info.address}]` : info.address
      // Tests and scripts parse this exact line.
      console.log(`BOQ listening on http://${host}:${info.port}`)
    },
  )
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use (set PORT to another one).`
        : error.message
    console.error(`BOQ cannot start: ${reason}`)
    process.exit(1)
  })
  stopOnSignal(boq, server)
}

/** BOQ_ROLE=worker: runs jobs from the shared queue, and answers nothing. */
function runWorker(boq: BoqServer): void {
  // Tests and scripts wait for this exact line.
  console.log('BOQ worker running')
  stopOnSignal(boq)
}

/**
 * On SIGINT or SIGTERM: stop taking requests and close open keep-alive connections (when
 * serving), then close the server, which puts running jobs back in the queue; then exit, after
 * 10 s whatever is left.
 */
function stopOnSignal(boq: BoqServer, server?: ServerType): void {
  const stop = async () => {
    setTimeout(() => process.exit(0), 10_000).unref()
    const closed = server && new Promise((resolve) => server.close(resolve))
    ;(server as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.()
    await boq.close().catch((error: unknown) => log.error('error while stopping', { err: error }))
    await closed
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error)
  console.error(`BOQ cannot start: ${message}`)
  process.exit(1)
})
