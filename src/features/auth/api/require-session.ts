import type { QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { httpStatus } from '../../../lib/http-errors'
import type { AuthStore } from './auth-store'
import { checkToken } from './sign-in-api'

/**
 * The protected layout's guard. Without a signed-in user it checks the token:
 * 401 or 500 sends the browser to /login, carrying the page asked for (`location`, a path with
 * its search) so that signing in leads back to it; otherwise it loads the profile
 * (a failure there is logged only) and the user is signed in.
 * Query and the HTTP client load only once the token check has passed, so a visitor
 * sent to /login downloads neither; the guard returns the QueryClient.
 */
export async function requireSession(
  auth: AuthStore,
  loadQueryClient: () => Promise<QueryClient>,
  location: string,
): Promise<QueryClient> {
  if (auth.get().signedIn) return loadQueryClient()
  try {
    await checkToken()
  } catch (error) {
    const status = httpStatus(error)
    if (status === 401 || status === 500) {
      // '/' is where signing in leads anyway: /login stays as plain as the specification has it.
      throw redirect({ to: '/login', search: location === '/' ? {} : { returnTo: location } })
    }
    throw error
  }
  const [queryClient, { authQueries }] = await Promise.all([
    loadQueryClient(),
    import('./auth-api'),
  ])
  try {
    auth.signIn(await queryClient.fetchQuery(authQueries.profile()))
  } catch (error) {
    console.error('Could not load the profile', error)
    auth.signIn(null)
  }
  return queryClient
}
