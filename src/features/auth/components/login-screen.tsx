import { useState } from 'react'
import { browser } from '../../../lib/browser'
import { fetchLoginUrl } from '../api/sign-in-api'

/**
 * The sign-in screen: the button asks the server for the sign-in URL and goes there; signing in
 * leads back to `returnTo` (a page of this app), or to '/'.
 */
export function LoginScreen({ returnTo }: { returnTo?: string }) {
  const [busy, setBusy] = useState(false)
  const login = async () => {
    setBusy(true)
    try {
      browser.assign(await fetchLoginUrl(returnTo))
    } catch (error) {
      console.error('Could not start the sign-in', error)
      setBusy(false)
    }
  }

  return (
    <main
      className="flex min-h-screen items-center justify-center bg-slate-900 bg-cover bg-center p-6"
      style={{ backgroundImage: 'url(/login-background.svg)' }}
    >
      <div className="flex w-full max-w-sm flex-col items-center gap-5 rounded-lg bg-white/95 p-8 shadow-xl">
        <img src="/logo.svg" alt="" width={72} height={72} />
        <h1 className="text-3xl font-bold tracking-wide text-slate-800">BOQ</h1>
        <button
          type="button"
          onClick={login}
          disabled={busy}
          className="w-full rounded bg-sky-700 px-4 py-2.5 font-medium text-white hover:bg-sky-800 disabled:opacity-60"
        >
          Login with Autodesk
        </button>
        <p className="text-sm text-slate-500">App description</p>
      </div>
    </main>
  )
}
