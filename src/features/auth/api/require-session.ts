import type { QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { httpStatus } from '../../../lib/http-errors'
import { authQueries, checkToken } from './auth-api'
import type { AuthStore } from './auth-store'

/**
 * The protected layout's guard. Without a signed-in user it checks the token:
 * 401 or 500 sends the browser to /login; otherwise it loads the profile
 * (a failure there is logged only) and the user is signed in.
 */
export async function requireSession(auth: AuthStore, queryClient: QueryClient): Promise<void> {
  if (auth.get().signedIn) return
  try {
    await checkToken()
  } catch (error) {
    const status = httpStatus(error)
    if (status === 401 || status === 500) throw redirect({ to: '/login' })
    throw error
  }
  try {
    auth.signIn(await queryClient.fetchQuery(authQueries.profile()))
  } catch (error) {
    console.error('Could not load the profile', error)
    auth.signIn(null)
  }
}
