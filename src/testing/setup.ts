import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { clearCookies } from './cookies'
import { resetFakeApi } from './fake-api'
import { server } from './msw-server'

// Lazy route chunks are transformed on first use; give the first render time.
configure({ asyncUtilTimeout: 3000 })

// jsdom has no ResizeObserver; Radix and react-arborist need one.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver

// jsdom does not scroll; the router resets the scroll position on navigation.
window.scrollTo = () => {}

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
// Normal use logs nothing: an unexpected console.error or console.warn fails the test.
// Tests that expect a logged failure spy on console.error themselves.
const consoleProblems: unknown[][] = []
const realError = console.error
const realWarn = console.warn

beforeEach(() => {
  consoleProblems.length = 0
  console.error = (...args: unknown[]) => {
    consoleProblems.push(args)
  }
  console.warn = (...args: unknown[]) => {
    consoleProblems.push(args)
  }
  resetFakeApi()
  // Each test starts without cookies, and with nothing kept in storage (e.g. the units chosen).
  clearCookies()
  localStorage.clear()
})
afterEach(() => {
  cleanup()
  server.resetHandlers()
  vi.restoreAllMocks()
  console.error = realError
  console.warn = realWarn
  if (consoleProblems.length > 0) {
    throw new Error(
      `Unexpected console output: ${consoleProblems.map((a) => a.join(' ')).join('\n')}`,
    )
  }
})
afterAll(() => server.close())
