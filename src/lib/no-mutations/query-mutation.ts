// Stands in for TanStack Query's Mutation in the build (vite.config.ts): the app posts with plain
// async handlers, never useMutation, so the QueryClient's mutation cache stays empty and never
// builds one (about 0.7 kB gzip).
import { leftOut } from '../left-out'

export class Mutation {
  constructor() {
    leftOut('TanStack Query mutations')
  }
}

export function getDefaultState(): never {
  return leftOut('TanStack Query mutations')
}
