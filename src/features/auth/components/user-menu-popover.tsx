import * as Popover from '@radix-ui/react-popover'
import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { browser } from '../../../lib/browser'
import { logout } from '../api/auth-api'
import { type AuthStore, useAuthState } from '../api/auth-store'

type Props = {
  auth: AuthStore
  open: boolean
  onOpenChange(open: boolean): void
  className: string
  children: ReactNode
}

/** The user button as a Radix popover trigger, and the popover with Logout. */
export default function UserMenuPopover({ auth, open, onOpenChange, className, children }: Props) {
  const queryClient = useQueryClient()
  const { user } = useAuthState(auth)
  const signOut = async () => {
    try {
      await logout()
    } catch (error) {
      console.error('Could not sign out', error)
    }
    auth.clear()
    queryClient.clear()
    browser.reload()
  }

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <button type="button" aria-label="User menu" className={className}>
          {children}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-48 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
        >
          {user?.name ? (
            <p className="px-2 py-1 text-sm font-medium text-slate-700">{user.name}</p>
          ) : null}
          <button
            type="button"
            onClick={signOut}
            className="w-full rounded px-2 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100"
          >
            Logout
          </button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
