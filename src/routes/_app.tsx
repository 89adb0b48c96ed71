import { createFileRoute } from '@tanstack/react-router'
import { AppShell } from '../app/layout/app-shell'
import { requireSession } from '../features/auth/api/require-session'

// The protected layout: every route below it needs a signed-in user.
export const Route = createFileRoute('/_app')({
  // The guard loads Query and the HTTP client only once the visitor is known to be signed in.
  beforeLoad: async ({ context, location }) => ({
    queryClient: await requireSession(context.auth, context.loadQueryClient, location.href),
  }),
  component: ProtectedLayout,
})

function ProtectedLayout() {
  const { auth, queryClient } = Route.useRouteContext()
  return <AppShell auth={auth} queryClient={queryClient} />
}
