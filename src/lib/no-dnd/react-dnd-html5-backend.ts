// Stands in for react-dnd-html5-backend in the build (see ./react-dnd.ts).
export const HTML5Backend = () => ({})

export function getEmptyImage(): null {
  return null
}
