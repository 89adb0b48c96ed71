import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { AppPathSchema } from '#contract/app-path.ts'
import { LoginScreen } from '../features/auth/components/login-screen'

// /login?returnTo=<path>: the page the guard sent the visitor from, where signing in leads back.
// A returnTo that is not a page of this app counts as absent: signing in then leads to '/'.
export const Route = createFileRoute('/login')({
  validateSearch: v.object({ returnTo: v.fallback(v.optional(AppPathSchema), undefined) }),
  component: Page,
})

function Page() {
  return <LoginScreen returnTo={Route.useSearch().returnTo} />
}
