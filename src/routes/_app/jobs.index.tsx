import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { JobStatusSchema } from '#contract/jobs.ts'
import { JobsPage } from '../../app/pages/jobs-page'
import { optionalText } from '../../app/search-params'

// The user's extractions: /jobs, a lazy chunk. The address may narrow the list to a drawing's
// name, a project and a status (/jobs?drawing=plan&project=b.tower&status=failed); a part it
// cannot read is left out.
export const Route = createFileRoute('/_app/jobs/')({
  validateSearch: v.object({
    drawing: optionalText,
    project: optionalText,
    status: v.fallback(v.optional(JobStatusSchema), undefined),
  }),
  component: Page,
})

function Page() {
  return <JobsPage search={Route.useSearch()} />
}
