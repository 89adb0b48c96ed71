import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
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

/** The app's own source files, each with its text. */
function appSources(): { path: string; text: string }[] {
  const root = join(import.meta.dirname, '..')
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
    .filter((path) => !path.startsWith(`lib${sep}no-`) && !path.startsWith(`lib${sep}own-`))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }))
}

// The stand-ins are in the production build only: a use of what they leave out would pass the
// tests and `npm run dev`, then throw in the built app. So none may appear in the app's code.
describe('what the stand-ins leave out', () => {
  it.each([
    ['a mutation', /\buse(Mutation|MutationState|IsMutating)\b/],
    ['an infinite query', /\b(useInfiniteQuery|useSuspenseInfiniteQuery|infiniteQueryOptions)\b/],
    ['ky’s progress', /\bon(Download|Upload)Progress\b/],
    ['react-window’s rows of varying height', /\bVariableSizeList\b/],
  ])('%s is not used by the app', (_, use) => {
    const users = appSources()
      .filter(({ text }) =>
        text.split('\n').some((line) => use.test(line) && !/^\s*\/\//.test(line)),
      )
      .map(({ path }) => path)
    expect(users).toEqual([])
  })

  it('has ky never retry (TanStack Query does)', () => {
    const client = appSources().find(({ path }) => path === join('lib', 'api-client.ts'))
    expect(client?.text).toMatch(/\bretry: 0\b/)
  })
})
