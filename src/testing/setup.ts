import '@testing-library/jest-dom/vitest'
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { clearCookies } from './cookies'
import { resetFakeApi } from './fake-api'
import { server } from './msw-server'

// Lazy route chunks are transformed on first use, and other test files run beside this one: the
// waits for what a test needs are bounded only against a hang.
configure({ asyncUtilTimeout: 10_000 })

// jsdom has no ResizeObserver; Radix and react-arborist need one.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver

// jsdom has no modal dialogs: showModal and close only open and close the element.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true
}
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false
}

// jsdom does not scroll; the router resets the scroll position on navigation.
window.scrollTo = () => {}

// Uploads: Node's fetch takes jsdom's FormData only through Vitest's copy, which drops the
// file names. Node's own FormData, File and Blob go through whole, as a browser's do. Set on
// the global only (not on jsdom's window, which Vitest's copy checks against).
const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor
for (const [name, value] of Object.entries({
  FormData: NodeFormData,
  File: NodeFile,
  Blob: NodeBlob,
})) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
}

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
