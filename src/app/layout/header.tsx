import { useNavigate } from '@tanstack/react-router'
import type { AuthStore } from '../../features/auth/api/auth-store'
import { UserMenu } from '../../features/auth/components/user-menu'

/** Where the logo leads: the build-time variable VITE_COMPANY_URL. */
const companyUrl: string =
  (import.meta.env.VITE_COMPANY_URL as string | undefined) || 'https://www.autodesk.com/'

const ROUND =
  'flex h-9 w-9 items-center justify-center overflow-hidden rounded-full border border-slate-300 bg-white text-sm font-semibold text-slate-700 hover:bg-slate-100'

export function Header({ auth }: { auth: AuthStore }) {
  const navigate = useNavigate()
  return (
    <header className="flex h-header items-center justify-between border-b border-slate-200 bg-white px-4">
      <a href={companyUrl} aria-label="Company site" target="_blank" rel="noopener noreferrer">
        <img src="/logo.svg" alt="" width={40} height={40} />
      </a>
      <nav className="flex items-center gap-3">
        <button
          type="button"
          aria-label="Home"
          className={ROUND}
          onClick={() => navigate({ to: '/home' })}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5 fill-none stroke-current"
            strokeWidth="1.8"
          >
            <path d="M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10" />
          </svg>
        </button>
        <UserMenu auth={auth} className={ROUND} />
        {/* The third round button has no action yet (as specified). */}
        <button type="button" aria-label="Help" className={ROUND}>
          <span aria-hidden="true">?</span>
        </button>
      </nav>
    </header>
  )
}
