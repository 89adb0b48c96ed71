import { useSyncExternalStore } from 'react'

import type { UserProfile } from '#contract/profile.ts'

export type { UserProfile }

export type AuthState = {
  /** True once the token check passed in this page's life. */
  signedIn: boolean
  /** The profile, when it could be loaded. */
  user: UserProfile | null
}

/** The client's auth state: a tiny store the router context and components share. */
export type AuthStore = {
  get(): AuthState
  signIn(user: UserProfile | null): void
  clear(): void
  subscribe(listener: () => void): () => void
}

const SIGNED_OUT: AuthState = { signedIn: false, user: null }

export function createAuthStore(): AuthStore {
  let state = SIGNED_OUT
  const listeners = new Set<() => void>()
  const set = (next: AuthState) => {
    state = next
    for (const listener of listeners) listener()
  }
  return {
    get: () => state,
    signIn: (user) => set({ signedIn: true, user }),
    clear: () => set(SIGNED_OUT),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export function useAuthState(store: AuthStore): AuthState {
  return useSyncExternalStore(store.subscribe, store.get, store.get)
}
