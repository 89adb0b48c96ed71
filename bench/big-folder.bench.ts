/**
 * One folder of 10,000 items in the local cloud:
 *   - the server's answer time for that folder's contents (the whole list, one answer);
 *   - in Chromium, the time from expanding the folder (the input event) to its first rows painted;
 *   - the number of tree rows in the DOM then (target <= 300: the tree is virtualized).
 * Several rounds; median and spread printed, since the machine is shared and noisy.
 */
import { rmSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { apiSignIn, titleOf } from '../e2e/support/api.ts'
import { bigCloud, makeBigCloud } from '../e2e/support/big-cloud.ts'
import { type BrowserSession, launchBrowser, unexpectedProblems } from '../e2e/support/browser.ts'
import { buildApp, isBuildCurrent } from '../e2e/support/build.ts'
import { type RunningServer, startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { expandTreeItem, treeItem } from '../e2e/support/tree.ts'
import { describeMs, median, versusTarget } from './support/stats.ts'

const itemCount = 10_000
const rounds = 5
const { hub, project, folder } = bigCloud

/**
 * Arms the page to time the next expand: from the first mousedown or keydown (the event's own
 * timestamp) to the first item row in the DOM, plus a frame (rows painted).
 */
function armTimer(page: Page): Promise<void> {
  return page.evaluate(() => {
    const state: { start?: number; end?: number } = {}
    Object.assign(window, { __bigFolder: state })
    const mark = (event: Event) => {
      state.start ??= event.timeStamp
    }
    document.addEventListener('mousedown', mark, { capture: true, once: true })
    document.addEventListener('keydown', mark, { capture: true, once: true })
    const rowShown = () =>
      [...document.querySelectorAll('[role="treeitem"]')].some((row) =>
        row.textContent?.includes('drawing-'),
      )
    const observer = new MutationObserver(() => {
      if (state.start === undefined || !rowShown()) return
      observer.disconnect()
      requestAnimationFrame(() =>
        setTimeout(() => {
          state.end = performance.now()
        }),
      )
    })
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
  })
}

async function elapsed(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => {
    const state = (window as unknown as { __bigFolder: { start?: number; end?: number } })
      .__bigFolder
    return state.end !== undefined && state.start !== undefined
      ? state.end - state.start
      : undefined
  })
  return (await handle.jsonValue()) as number
}

/** Tree rows in the DOM once their number stayed the same for half a second. */
async function settledRowCount(page: Page): Promise<number> {
  let count = -1
  let stableSince = Date.now()
  for (;;) {
    const now = await page.locator('[role="treeitem"]').count()
    if (now !== count) {
      count = now
      stableSince = Date.now()
    } else if (Date.now() - stableSince >= 500) return count
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

if (!isBuildCurrent()) await buildApp()
const dataDir = makeBigCloud(itemCount)
let server: RunningServer | undefined
let browser: BrowserSession | undefined
try {
  server = await startServer({ dataDir })
  browser = await launchBrowser()
  // The server alone: the whole folder in one answer.
  const api = await apiSignIn(server.url)
  const [hubObject] = await api.list('/api/aps/hubs')
  const [projectObject] = await api.list(
    `/api/aps/hubs/${encodeURIComponent(hubObject.id)}/projects`,
  )
  const contents = `/api/aps/hubs/${encodeURIComponent(hubObject.id)}/projects/${encodeURIComponent(projectObject.id)}/contents`
  const folderObject = (await api.list(contents)).find((entry) => titleOf(entry) === folder)
  if (!folderObject) throw new Error(`${folder} is not among the project's top folders`)
  const serverTimes: number[] = []
  let answerBytes = 0
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now()
    const response = await api.request(
      `${contents}?folder_id=${encodeURIComponent(folderObject.id)}`,
    )
    const text = await response.text()
    const took = performance.now() - started
    const count = (JSON.parse(text) as unknown[]).length
    if (count !== itemCount) throw new Error(`The folder answered ${count} items, not ${itemCount}`)
    answerBytes = text.length
    if (round === 0) console.log(`server, first answer (cold): ${took.toFixed(1)} ms`)
    else serverTimes.push(took)
  }
  console.log(
    `server, ${itemCount} items in one answer (${(answerBytes / 1e6).toFixed(2)} MB JSON): ${describeMs(serverTimes)}`,
  )

  // The app: expand the folder, time until its first rows show, count the rows in the DOM.
  const { page, problems } = browser
  await signIn(page, server.url).catch((error: Error) => {
    // What the page met says why (a 503 or a missing chunk: its build replaced under it, …).
    throw new Error(`${error.message}\nThe page met: ${unexpectedProblems(problems).join('\n')}`)
  })
  const browserTimes: number[] = []
  const domRows: number[] = []
  for (let round = 0; round < rounds; round++) {
    if (round > 0) {
      await page.reload() // a fresh query cache: the folder is fetched again
      await treeItem(page, hub).waitFor()
    }
    await expandTreeItem(page, hub)
    await treeItem(page, project).waitFor()
    await expandTreeItem(page, project)
    await treeItem(page, folder).waitFor()
    await armTimer(page)
    await expandTreeItem(page, folder)
    browserTimes.push(await elapsed(page))
    domRows.push(await settledRowCount(page))
  }
  const maxRows = Math.max(...domRows)
  console.log(`browser, expand to first rows painted: ${describeMs(browserTimes)}`)
  console.log(
    `browser, tree rows in the DOM: ${maxRows} at most, ${versusTarget(maxRows, 300, ' rows')}`,
  )
  console.log(
    `\nbig-folder: server ${median(serverTimes).toFixed(1)} ms, browser ${median(browserTimes).toFixed(1)} ms to rows, ${maxRows} rows in DOM (target <= 300)`,
  )
} finally {
  await browser?.close()
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
