import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startNode, superviseUntilExit } from './children.ts'

/**
 * `npm run dev`: the API server on 127.0.0.1:3001 (restarted when its code changes) and Vite with
 * HMR, which proxies /api to it (vite.config.ts). Ctrl-C stops both.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const apiPort = process.env.BOQ_DEV_API_PORT ?? '3001'

const server = startNode(['--watch', join(root, 'server', 'main.ts')], {
  PORT: apiPort,
  HOST: '127.0.0.1',
  BOQ_DEV_API: `http://127.0.0.1:${apiPort}`,
})
const vite = startNode([join(root, 'node_modules', 'vite', 'bin', 'vite.js')], {
  BOQ_DEV_API: `http://127.0.0.1:${apiPort}`,
})

await superviseUntilExit([server, vite])
