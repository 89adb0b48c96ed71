// Stands in for aria-hidden in the build (see ./react-remove-scroll.tsx): Radix hides the rest of
// the page from screen readers only behind a modal popover, and the app has none.
import { leftOut } from '../left-out'

export function hideOthers(): never {
  return leftOut('Modal popovers')
}
