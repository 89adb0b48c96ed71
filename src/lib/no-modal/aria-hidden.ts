// Stands in for aria-hidden in the build (see ./react-remove-scroll.tsx): Radix hides the rest of
// the page from screen readers only behind a modal popover, and the app has none.
export function hideOthers(): never {
  throw new Error('Modal popovers are not in this build: see the aliases in vite.config.ts')
}
