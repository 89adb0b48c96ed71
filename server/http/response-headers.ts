import type { Context } from 'hono'
import { printable } from '../cloud/names.ts'

/** Answers that neither the browser nor a proxy may keep (the person's own, changing data). */
export function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store')
}

/**
 * attachment; a plain ASCII fallback name plus the UTF-8 one (RFC 6266 / 5987). Invisible and
 * direction-changing characters (a job recorded before names were checked) are written as
 * visible escapes first, so neither form can carry one.
 */
export function contentDisposition(fileName: string): string {
  const visible = printable(fileName)
  const fallback = visible.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const exact = encodeURIComponent(visible).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`
}
