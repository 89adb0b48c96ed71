import type { JsonApiResource } from '../types.ts'
import { badAnswer } from './upstream-errors.ts'

/**
 * Pages of one list asked for at the same time, at most. Autodesk numbers its pages
 * (`page[number]`) but does not say how many there are, so once a page has `links.next` the
 * following ones are asked for ahead, and up to PAGE_PARALLELISM - 1 of them can lie past the end
 * (cancelled, never shown). Five turn a 25-page folder into 6 round trips instead of 25 (four
 * left too little margin under half the sequential time on a busy machine), while one listing
 * stays a small burst against Autodesk's per-minute rate limits: it adds at most four calls.
 */
export const PAGE_PARALLELISM = 5
const MAX_PAGES = 10_000
const PAGE_NUMBER = 'page[number]'

export interface ListPage {
  data: JsonApiResource[]
  included: JsonApiResource[]
  /** The absolute `links.next`; undefined on the last page. */
  next: string | undefined
}

/** A page's text by its address (the listing's token, rate-limit pause and cancel signal given). */
export type PageText = (url: string) => Promise<string>

/** Where numbered pages are: the number of the page after the first, and any page's address. */
interface Numbering {
  next: number
  url(number: number): string
}

/**
 * Every page of a JSON:API list, in order, from its first page's address. When the first page's
 * `links.next` is that address one `page[number]` further (as Autodesk's are), the rest come
 * PAGE_PARALLELISM at a time by number; otherwise `links.next` is followed page after page (same
 * origin only: `send` refuses others). Whole or an error: a page that fails fails the list.
 */
export async function readAllPages(
  first: string,
  origin: string,
  pageText: PageText,
): Promise<ListPage[]> {
  const absolute = (href: unknown) => {
    if (typeof href !== 'string' || href === '') return undefined
    if (!URL.canParse(href, `${origin}/`)) throw badAnswer('a list with a broken next link')
    return new URL(href, `${origin}/`).toString()
  }
  const seen = new Set<string>()
  const request = (target: string) => {
    if (seen.has(target) || seen.size >= MAX_PAGES) throw badAnswer('a list whose pages never end')
    seen.add(target)
    const text = pageText(target)
    text.catch(() => {}) // awaited below, or dropped when the early link was wrong
    return { target, text }
  }
  // The next request leaves as soon as its link is found in the page's text, so the parsing of a
  // big page overlaps Autodesk's time on the next one; the parsed link is then checked against it.
  const pages: ListPage[] = []
  let current: { target: string; text: Promise<string> } | undefined = request(first)
  while (current) {
    const text = await current.text
    let early: string | undefined
    try {
      early = absolute(earlyNextLink(text))
    } catch {
      early = undefined // the parsed page decides below
    }
    const ahead = early && !seen.has(early) ? request(early) : undefined
    const page = parsePage(text, absolute)
    pages.push(page)
    const next = page.next
    const numbering = pages.length === 1 && next ? numberingOf(first, next) : undefined
    if (numbering && next) {
      const started = ahead?.target === next ? ahead.text : undefined
      return pages.concat(await numberedPages(numbering, pageText, absolute, started))
    }
    if (ahead && ahead.target === next) current = ahead
    else {
      if (ahead) seen.delete(ahead.target)
      current = next ? request(next) : undefined
    }
  }
  return pages
}

/**
 * Pages `numbering.next`, `numbering.next + 1`, … PAGE_PARALLELISM at a time, until one has no
 * `links.next`. Settles as soon as the answer is known in page order: every page up to that last
 * one, or the first failure among them; what comes back for pages past it is not looked at.
 */
function numberedPages(
  numbering: Numbering,
  pageText: PageText,
  absolute: (href: unknown) => string | undefined,
  /** The first of these pages, already asked for. */
  started: Promise<string> | undefined,
): Promise<ListPage[]> {
  const onePage = async (number: number, text: Promise<string> | undefined) => {
    if (number >= MAX_PAGES) throw badAnswer('a list whose pages never end')
    const page = parsePage(await (text ?? pageText(numbering.url(number))), absolute)
    if (page.next && numberingOf(numbering.url(number), page.next)?.next !== number + 1) {
      throw badAnswer('a list whose pages do not follow each other')
    }
    return page
  }
  return new Promise((resolve, reject) => {
    // outcomes[i] is page numbering.next + i.
    const outcomes: (ListPage | { failure: unknown })[] = []
    let launched = 0
    let needed = Number.POSITIVE_INFINITY // pages from this index on are not needed
    let settled = false
    let known = 0 // outcomes[0 .. known) are pages with a next link
    const settle = () => {
      while (!settled && outcomes[known] !== undefined) {
        const outcome = outcomes[known]
        if ('failure' in outcome) {
          settled = true
          reject(outcome.failure)
        } else if (!outcome.next) {
          settled = true
          resolve(outcomes.slice(0, known + 1) as ListPage[])
        } else known += 1
      }
    }
    const worker = async () => {
      while (!settled && launched < needed) {
        const index = launched++
        const outcome = await onePage(
          numbering.next + index,
          index === 0 ? started : undefined,
        ).catch((failure: unknown) => ({ failure }))
        outcomes[index] = outcome
        if ('failure' in outcome || !outcome.next) needed = Math.min(needed, index + 1)
        settle()
      }
    }
    for (let slot = 0; slot < PAGE_PARALLELISM; slot++) void worker()
  })
}

/** Numbered pages, when `next` is `first` one `page[number]` further; else undefined. */
function numberingOf(first: string, next: string): Numbering | undefined {
  const from = new URL(first)
  const to = new URL(next)
  const start = from.searchParams.has(PAGE_NUMBER) ? pageNumberOf(from) : 0
  if (start === undefined || from.origin !== to.origin || from.pathname !== to.pathname) {
    return undefined
  }
  if (pageNumberOf(to) !== start + 1) return undefined
  return {
    next: start + 1,
    url(number) {
      if (number === start + 1) return next
      const target = new URL(next)
      target.searchParams.set(PAGE_NUMBER, String(number))
      // Spaces as %20 rather than '+', as every other Autodesk address here.
      target.search = target.searchParams.toString().replace(/\+/g, '%20')
      return target.toString()
    },
  }
}

function pageNumberOf(url: URL): number | undefined {
  const raw = url.searchParams.get(PAGE_NUMBER)
  return raw !== null && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined
}

function parsePage(text: string, absolute: (href: unknown) => string | undefined): ListPage {
  let page: { data?: unknown; included?: unknown; links?: { next?: { href?: unknown } | null } }
  try {
    page = JSON.parse(text)
  } catch {
    throw badAnswer('a list')
  }
  if (!Array.isArray(page?.data)) throw badAnswer('a list')
  return {
    data: page.data as JsonApiResource[],
    included: Array.isArray(page.included) ? (page.included as JsonApiResource[]) : [],
    next: absolute(page.links?.next?.href),
  }
}

/**
 * The `links.next` href as it stands in a JSON:API page's text, before the page is parsed. Inside
 * JSON strings quotes are escaped, so this pattern can only meet the document's own keys.
 */
export function earlyNextLink(text: string): string | undefined {
  const match = /"next"\s*:\s*\{\s*"href"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)
  if (!match) return undefined
  try {
    return JSON.parse(match[1]) as string
  } catch {
    return undefined
  }
}
