import { createFileRoute } from '@tanstack/react-router'
import { JobsPage } from '../../app/pages/jobs-page'

// The user's extractions: /jobs, a lazy chunk.
export const Route = createFileRoute('/_app/jobs/')({
  component: JobsPage,
})
