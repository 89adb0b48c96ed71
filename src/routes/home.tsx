import { createFileRoute, redirect } from '@tanstack/react-router'

// The file-selection screen lives at '/'; old links to /home still arrive there.
export const Route = createFileRoute('/home')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true })
  },
})
