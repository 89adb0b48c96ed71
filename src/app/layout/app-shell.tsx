import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Outlet } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import type { AuthStore } from '../../features/auth/api/auth-store'
import { Header } from './header'

// Development only; the production build drops this import.
const QueryDevtools =
  import.meta.env.DEV && import.meta.env.MODE !== 'test'
    ? lazy(() => import('../devtools/query-devtools'))
    : null

/** The signed-in frame: Query for everything below, the header above the page. */
export function AppShell({ auth, queryClient }: { auth: AuthStore; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex min-h-screen flex-col bg-slate-50">
        <Header auth={auth} />
        <main className="flex-1">
          <Outlet />
        </main>
      </div>
      {QueryDevtools ? (
        <Suspense fallback={null}>
          <QueryDevtools />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  )
}
