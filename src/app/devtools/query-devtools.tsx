import { ReactQueryDevtools } from '@tanstack/react-query-devtools'

export default function QueryDevtools() {
  return <ReactQueryDevtools buttonPosition="bottom-left" />
}
