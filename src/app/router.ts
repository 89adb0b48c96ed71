import { createRouter, type RouterHistory } from '@tanstack/react-router'
import { ErrorPage } from '../components/ui/error-page'
import { NotFoundPage } from '../components/ui/not-found-page'
import { routeTree } from '../route-tree.gen'
import type { RouterContext } from './router-context'

export function createAppRouter(options: RouterContext & { history?: RouterHistory }) {
  return createRouter({
    routeTree,
    context: { auth: options.auth, loadQueryClient: options.loadQueryClient },
    history: options.history,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: ErrorPage,
    defaultPreload: 'intent',
    // Query caches the data; the router should always ask it.
    defaultPreloadStaleTime: 0,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
