// Stands in for react-remove-scroll in the build (vite.config.ts resolve.alias). Radix's popover
// locks the page's scroll only for a modal popover, and the app has none: this keeps about 5 kB
// gzip off the user menu. A modal popover would fail here, loudly, rather than scroll freely.
import { leftOut } from '../left-out'

export function RemoveScroll(): never {
  return leftOut('Modal popovers')
}
