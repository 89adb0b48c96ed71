import { createFileRoute } from '@tanstack/react-router'
import { ComparePage } from '../../app/pages/compare-page'

type Search = { from?: string; to?: string }

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)

// The change bill between two finished jobs: /compare?from=<jobId>&to=<jobId>, a lazy chunk.
export const Route = createFileRoute('/_app/compare')({
  validateSearch: (search: Record<string, unknown>): Search => ({
    from: text(search.from),
    to: text(search.to),
  }),
  component: Page,
})

function Page() {
  return <ComparePage search={Route.useSearch()} />
}
