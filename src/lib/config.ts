// Build-time settings (Vite inlines import.meta.env.VITE_* at build time).

/** The API's base URL, always absolute and ending in '/': VITE_API_URL, or this page's origin. */
export function apiBaseUrl(): string {
  const configured = import.meta.env.VITE_API_URL as string | undefined
  const base = new URL(configured || '/', window.location.origin)
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  return base.href
}

/** Absolute URL of an API path such as '/api/boq/jobs/1/result.xlsx'. */
export function apiUrl(path: string): string {
  return new URL(path.replace(/^\/+/, ''), apiBaseUrl()).href
}
