import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { UserProfileSchema } from '#contract/profile.ts'
import { api, XSRF_CONTEXT } from '../../../lib/api-client'

/** Query keys and fetchers of the auth feature, general → specific. */
export const authQueries = {
  all: () => ['auth'] as const,
  profile: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'profile'] as const,
      queryFn: async ({ signal }) =>
        v.parse(UserProfileSchema, await api.get('api/aps/auth/profile', { signal }).json()),
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/** The server answers logout only to the app itself: the GET carries the anti-forgery header. */
export async function logout(): Promise<void> {
  await api.get('api/aps/auth/logout', { context: XSRF_CONTEXT })
}
