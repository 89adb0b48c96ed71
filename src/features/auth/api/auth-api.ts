import { queryOptions } from '@tanstack/react-query'
import { api, XSRF_CONTEXT } from '../../../lib/api-client'
import type { UserProfile } from './auth-store'

/** Query keys and fetchers of the auth feature, general → specific. */
export const authQueries = {
  all: () => ['auth'] as const,
  profile: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'profile'] as const,
      queryFn: ({ signal }) => api.get('api/aps/auth/profile', { signal }).json<UserProfile>(),
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/** Resolves when a session exists; rejects with ky's HTTPError (401 when signed out). */
export async function checkToken(): Promise<void> {
  await api.get('api/aps/auth/token')
}

/** The sign-in URL. The server answers it as plain text or as a JSON string. */
export async function fetchLoginUrl(): Promise<string> {
  const body = (await api.get('api/aps/auth/login').text()).trim()
  if (body.startsWith('"')) {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === 'string') return parsed
  }
  return body
}

/** The server answers logout only to the app itself: the GET carries the anti-forgery header. */
export async function logout(): Promise<void> {
  await api.get('api/aps/auth/logout', { context: XSRF_CONTEXT })
}
