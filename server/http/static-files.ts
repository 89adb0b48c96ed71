import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { MiddlewareHandler } from 'hono'
import { plain } from './errors.ts'

/**
 * Serves the built app (dist/) with history fallback: a path that is not a file gets index.html,
 * so the app's router answers it (its own 404 page included). A missing asset (a name with a dot)
 * gets a plain 404 instead of HTML. A file the build also wrote compressed (`.br`, `.gz` beside it,
 * vite.config.ts) is sent so to a browser whose Accept-Encoding names that encoding.
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
    files ??= serveStatic({ root: distDir, precompressed: true })
    index ??= serveStatic({ root: distDir, path: 'index.html', precompressed: true })
    const served = await files(c, async () => {})
    // Vite names assets by content hash: cache them for good; always revalidate the page.
    if (served) return cached(served, c.req.path.startsWith('/assets/'))
    const last = c.req.path.split('/').pop() ?? ''
    if (last.includes('.')) return plain(c, 'Not found.', 404)
    const page = await index(c, async () => {})
    return page ? cached(page, false) : next()
  }
}

/**
 * The file's answer with its caching headers. Caches must keep the encodings apart, the
 * uncompressed answer too (serveStatic says so only on a compressed one).
 */
function cached(file: Response, hashed: boolean): Response {
  file.headers.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
  if (!/\baccept-encoding\b/i.test(file.headers.get('Vary') ?? '')) {
    file.headers.append('Vary', 'Accept-Encoding')
  }
  return file
}
