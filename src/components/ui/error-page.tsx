import { type ErrorComponentProps, useRouter } from '@tanstack/react-router'

/** Shown when a route fails unexpectedly (for example the server cannot be reached). */
export function ErrorPage({ error }: ErrorComponentProps) {
  const router = useRouter()
  return (
    <main role="alert" className="flex min-h-screen flex-col items-center justify-center gap-4 p-6">
      <p className="text-slate-700">
        Something went wrong: {error instanceof Error ? error.message : String(error)}
      </p>
      <button
        type="button"
        onClick={() => router.invalidate()}
        className="rounded border border-slate-300 px-4 py-2 text-slate-700 hover:bg-slate-100"
      >
        Try again
      </button>
    </main>
  )
}
