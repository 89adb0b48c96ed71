// Stands in for react-arborist's use-simple-tree in the build (vite.config.ts): the tree that keeps
// its own copy of `initialData` and edits it. The file tree is controlled (`data`, children loaded
// from onToggle), so this never runs (about 0.9 kB gzip); a tree given initialData fails here.
export function useSimpleTree(): never {
  throw new Error('A react-arborist tree with initialData is not in this build: pass data instead')
}
