import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { chromiumPath } from './paths.ts'

/** Flags for a quiet headless Chromium that talks to nothing but the pages we open. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Something that went wrong in the page: a console error, an uncaught exception, a failed request. */
export interface PageProblem {
  kind: 'console' | 'pageerror' | 'requestfailed'
  text: string
  /** The URL concerned, when there is one (the resource of "Failed to load resource", the request). */
  url?: string
}

export interface BrowserSession {
  context: BrowserContext
  /** The first tab; more can be opened with `context.newPage()` (their problems are collected too). */
  page: Page
  /** Console errors, page errors and failed requests of every page of the context, in order. */
  problems: PageProblem[]
  /** Closes the context (and, for launchBrowser's, Chromium). */
  close(): Promise<void>
}

/** What each test's context starts with. */
export interface SessionOptions {
  viewport?: { width: number; height: number }
  timezoneId?: string
}

function watch(page: Page, problems: PageProblem[]) {
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    problems.push({
      kind: 'console',
      text: message.text(),
      url: message.location().url || undefined,
    })
  })
  page.on('pageerror', (error) => {
    problems.push({ kind: 'pageerror', text: error.stack ?? error.message })
  })
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed'
    // A navigation away aborts requests still in flight: that is not a problem of the page.
    if (failure === 'net::ERR_ABORTED') return
    problems.push({ kind: 'requestfailed', text: failure, url: request.url() })
  })
}

/**
 * Starts Debian's Chromium (never a downloaded browser), headless, with a temporary profile of its
 * own that closing removes. Close it in afterAll; a crashed run leaves no browser either
 * (playwright kills it when the Node process exits).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs })
}

/**
 * A fresh context of `browser` (no cookies, no storage, no cache: as a new profile) with one tab,
 * whose problems are collected. Many tests share one Chromium, each in a context of its own.
 */
export async function newSession(
  browser: Browser,
  options: SessionOptions = {},
): Promise<BrowserSession> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    timezoneId: options.timezoneId,
  })
  // Other test files run beside this one: a wait for a page's element or answer is bounded only
  // against a hang (the test's own limit is longer).
  context.setDefaultTimeout(60_000)
  const problems: PageProblem[] = []
  context.on('page', (page) => watch(page, problems))
  const page = await context.newPage()
  return {
    context,
    page,
    problems,
    async close() {
      await context.close().catch(() => {})
    },
  }
}

/** A Chromium of its own with one fresh context, for a test that needs a browser only once. */
export async function launchBrowser(options: SessionOptions = {}): Promise<BrowserSession> {
  const browser = await launchChromium()
  try {
    const session = await newSession(browser, options)
    return {
      ...session,
      async close() {
        await session.close()
        await browser.close().catch(() => {})
      },
    }
  } catch (error) {
    await browser.close().catch(() => {})
    throw error
  }
}

/**
 * The problems not explained by `expected` (each pattern is tried on the text and the URL), as
 * readable lines: `expect(unexpectedProblems(session.problems)).toEqual([])`.
 * Chromium logs every HTTP error answer as "Failed to load resource: … status of 401": a test
 * that provokes one on purpose lists it, e.g. `[/\/api\/aps\/auth\/token$/]`.
 */
export function unexpectedProblems(problems: PageProblem[], expected: RegExp[] = []): string[] {
  return problems
    .filter(
      (problem) => !expected.some((re) => re.test(problem.text) || re.test(problem.url ?? '')),
    )
    .map((problem) => `${problem.kind}: ${problem.text}${problem.url ? ` (${problem.url})` : ''}`)
}
