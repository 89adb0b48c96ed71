import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
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
  /** Closes Chromium and removes its temp profile. */
  close(): Promise<void>
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
 * Launches Debian's Chromium (never a downloaded browser) with a fresh temp profile, so cookies
 * and storage start empty. Close it in afterAll/afterEach; a crashed run leaves no browser either
 * (playwright kills it when the Node process exits).
 */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number }; timezoneId?: string } = {},
): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'boq-e2e-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    timezoneId: options.timezoneId,
  })
  const problems: PageProblem[] = []
  for (const page of context.pages()) watch(page, problems)
  context.on('page', (page) => watch(page, problems))
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    problems,
    async close() {
      await context.close().catch(() => {})
      rmSync(profile, { recursive: true, force: true })
    },
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
