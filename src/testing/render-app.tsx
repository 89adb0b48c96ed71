import { createMemoryHistory } from '@tanstack/react-router'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { App } from '../app/app'
import { createQueryClient } from '../app/query-client'
import { createAppRouter } from '../app/router'
import { createAuthStore } from '../features/auth/api/auth-store'

/** Renders the whole app at `path` against the fake server, as a browser would. */
export function renderApp(path = '/') {
  const queryClient = createQueryClient({ retry: false })
  const auth = createAuthStore()
  const history = createMemoryHistory({ initialEntries: [path] })
  const router = createAppRouter({
    auth,
    loadQueryClient: () => Promise.resolve(queryClient),
    history,
  })
  const user = userEvent.setup()
  const view = render(<App router={router} />)
  return { ...view, router, auth, queryClient, user }
}
