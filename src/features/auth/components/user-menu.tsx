import { type ComponentProps, lazy, Suspense, useState } from 'react'
import { type AuthStore, useAuthState } from '../api/auth-store'

// Radix's popover is most of the header's weight: it loads when the menu is first wanted.
const importPopover = () => import('./user-menu-popover')
const UserMenuPopover = lazy(importPopover)

type Props = { auth: AuthStore; className: string }

/** The round user button; its popover holds Logout. */
export function UserMenu({ auth, className }: Props) {
  const { user } = useAuthState(auth)
  const [wanted, setWanted] = useState(false)
  const [open, setOpen] = useState(false)

  const face = user?.picture ? (
    <img src={user.picture} alt="" className="h-full w-full rounded-full object-cover" />
  ) : (
    <span aria-hidden="true">{initials(user?.name)}</span>
  )
  const plainButton = (extra: ComponentProps<'button'>) => (
    <button
      type="button"
      aria-label="User menu"
      aria-haspopup="dialog"
      aria-expanded={false}
      className={className}
      {...extra}
    >
      {face}
    </button>
  )

  if (!wanted) {
    return plainButton({
      onPointerEnter: () => void importPopover(),
      onFocus: () => void importPopover(),
      onClick: () => {
        setWanted(true)
        setOpen(true)
      },
    })
  }
  return (
    <Suspense fallback={plainButton({})}>
      <UserMenuPopover auth={auth} open={open} onOpenChange={setOpen} className={className}>
        {face}
      </UserMenuPopover>
    </Suspense>
  )
}

function initials(name: string | undefined): string {
  const letters = (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase())
  return letters.slice(0, 2).join('') || '?'
}
