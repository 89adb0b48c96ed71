// Stands in for react-arborist's default row and node in the build (vite.config.ts): the file
// tree renders its own (renderRow and the Tree's child), so these never render (0.2 kB gzip).
import { leftOut } from '../left-out'

export function DefaultRow(): never {
  return leftOut('A react-arborist tree without renderRow')
}

export function DefaultNode(): never {
  return leftOut('A react-arborist tree without a node renderer')
}
