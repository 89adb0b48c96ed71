import { describe, expect, it } from 'vitest'
import { hideOthers } from './no-modal/aria-hidden'
import { RemoveScroll } from './no-modal/react-remove-scroll'
import { useSimpleTree } from './no-uncontrolled-tree/use-simple-tree'

// The build's stand-ins for what the app never uses fail loudly if it starts to.
describe('stand-ins for unused library parts', () => {
  it.each([
    ['a modal popover’s scroll lock', RemoveScroll],
    ['a modal popover’s aria-hidden', hideOthers],
    ['an uncontrolled react-arborist tree', useSimpleTree],
  ])('%s throws, naming what is missing', (_, standIn) => {
    expect(() => standIn()).toThrow(/not in this build/)
  })
})
