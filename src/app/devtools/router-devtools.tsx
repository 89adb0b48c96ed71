import { TanStackRouterDevtools } from '@tanstack/react-router-devtools'

export default function RouterDevtools() {
  return <TanStackRouterDevtools position="bottom-right" />
}
