import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { ComparePage } from '../../app/pages/compare-page'
import { optionalText } from '../../app/search-params'

// The change bill between two finished jobs: /compare?from=<jobId>&to=<jobId>, a lazy chunk.
export const Route = createFileRoute('/_app/compare')({
  validateSearch: v.object({ from: optionalText, to: optionalText }),
  component: Page,
})

function Page() {
  return <ComparePage search={Route.useSearch()} />
}
