import { describe, expect, it } from 'vitest'
import { infiniteQueryBehavior } from './no-infinite-queries/query-infinite'
import { hideOthers } from './no-modal/aria-hidden'
import { RemoveScroll } from './no-modal/react-remove-scroll'
import { getDefaultState, Mutation } from './no-mutations/query-mutation'
import { streamRequest } from './no-progress/ky-body'
import { getRetryTimingHeader } from './no-retries/ky-retry-timing'
import { useSimpleTree } from './no-uncontrolled-tree/use-simple-tree'
import { FixedSizeList, VariableSizeList } from './no-variable-rows/react-window'
import { DefaultNode, DefaultRow } from './own-rows/react-arborist-defaults'

// The build's stand-ins for what the app never uses fail loudly if it starts to.
describe('stand-ins for unused library parts', () => {
  it.each([
    ['a modal popover’s scroll lock', RemoveScroll],
    ['a modal popover’s aria-hidden', hideOthers],
    ['an uncontrolled react-arborist tree', useSimpleTree],
    ['react-arborist rows of varying height', VariableSizeList],
    ['react-arborist’s default row', DefaultRow],
    ['react-arborist’s default node', DefaultNode],
    ['ky’s retries', getRetryTimingHeader],
    ['ky’s progress', streamRequest],
    ['a TanStack Query mutation’s state', getDefaultState],
    ['a TanStack Query mutation', () => new Mutation()],
    ['an infinite query', infiniteQueryBehavior],
  ])('%s throws, naming what is missing', (_, standIn) => {
    expect(() => standIn()).toThrow(/not in this build/)
  })

  it('keeps react-window’s list of fixed-height rows', () => {
    expect(FixedSizeList).toBeTypeOf('function')
  })
})
