// Stands in for react-window inside react-arborist in the build (vite.config.ts): the file tree's
// rows have one height (a number rowHeight), so react-arborist renders react-window's
// FixedSizeList, never its VariableSizeList, which stays out (about 0.7 kB gzip).
import { leftOut } from '../left-out'

// @ts-expect-error react-window ships no types (react-arborist imports it untyped too)
export { FixedSizeList } from 'react-window'

export function VariableSizeList(): never {
  return leftOut('A react-arborist tree whose rowHeight is a function')
}
