import { useNavigate } from '@tanstack/react-router'

/** The public 404 page. */
export function NotFoundPage() {
  const navigate = useNavigate()
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 p-6">
      <p className="text-6xl font-bold text-slate-300">404</p>
      <p className="text-slate-700">Sorry, the page you visited does not exist.</p>
      <button
        type="button"
        onClick={() => navigate({ to: '/' })}
        className="rounded bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800"
      >
        Back Home
      </button>
    </main>
  )
}
