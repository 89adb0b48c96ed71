// Stands in for react-arborist's use-simple-tree in the build (vite.config.ts): the tree that keeps
// its own copy of `initialData` and edits it. The file tree is controlled (`data`, children loaded
// from onToggle), so this never runs (about 0.9 kB gzip); a tree given initialData fails here.
import { leftOut } from '../left-out'

export function useSimpleTree(): never {
  return leftOut('A react-arborist tree with initialData (pass data instead)')
}
