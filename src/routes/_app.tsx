import { createFileRoute } from '@tanstack/react-router'
import { AppShell } from '../app/layout/app-shell'

// The protected layout: every route below it needs a signed-in user.
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context }) => {
    // Loaded on demand so that /login loads neither the HTTP client nor Query.
    const [{ requireSession }, queryClient] = await Promise.all([
      import('../features/auth/api/require-session'),
      context.loadQueryClient(),
    ])
    await requireSession(context.auth, queryClient)
    return { queryClient }
  },
  component: ProtectedLayout,
})

function ProtectedLayout() {
  const { auth, queryClient } = Route.useRouteContext()
  return <AppShell auth={auth} queryClient={queryClient} />
}
