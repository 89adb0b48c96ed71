import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { MiddlewareHandler } from 'hono'
import { plain } from './errors.ts'

/**
 * Serves the built app (dist/) with history fallback: a path that is not a file gets index.html,
 * so the app's router answers it (its own 404 page included). A missing asset (a name with a dot)
 * gets a plain 404 instead of HTML.
 */
export function staticFiles(distDir: string): MiddlewareHandler {
  let files: MiddlewareHandler | undefined
  let index: MiddlewareHandler | undefined
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    if (!existsSync(join(distDir, 'index.html'))) {
      return plain(
        c,
        'The app is not built yet: run `npm run build` (`npm start` does it for you).',
        503,
      )
    }
    files ??= serveStatic({
      root: distDir,
      onFound: (path, ctx) => {
        // Vite names assets by content hash: cache them for good; always revalidate the page.
        const hashed = path.startsWith(join(distDir, 'assets'))
        ctx.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
    index ??= serveStatic({
      root: distDir,
      path: 'index.html',
      onFound: (_path, ctx) => {
        ctx.header('Cache-Control', 'no-cache')
      },
    })
    const served = await files(c, async () => {})
    if (served) return served
    const last = c.req.path.split('/').pop() ?? ''
    if (last.includes('.')) return plain(c, 'Not found.', 404)
    const page = await index(c, async () => {})
    return page ?? next()
  }
}
