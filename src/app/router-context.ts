import type { QueryClient } from '@tanstack/react-query'
import type { AuthStore } from '../features/auth/api/auth-store'

/**
 * What every route's beforeLoad and loader receive. The QueryClient comes on demand:
 * only the protected layout needs it, and /login must stay small. The protected
 * layout's beforeLoad puts the client itself into its children's context as `queryClient`.
 */
export type RouterContext = {
  auth: AuthStore
  loadQueryClient: () => Promise<QueryClient>
}
