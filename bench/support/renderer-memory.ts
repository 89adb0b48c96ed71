import { readdirSync, readFileSync } from 'node:fs'

/** A Chromium renderer's resident memory (bytes): now, and the most it has held. */
export type RendererMemory = { pid: number; rss: number; peakRss: number }

/** The Chromium renderers this process started (through Playwright), by pid, read from /proc. */
export function rendererMemory(): Map<number, RendererMemory> {
  const found = new Map<number, RendererMemory>()
  let pids: number[]
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return found // no /proc: not Linux
  }
  const parents = new Map<number, number>()
  for (const pid of pids) {
    const parent = parentOf(pid)
    if (parent !== undefined) parents.set(pid, parent)
  }
  const ours = (pid: number) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === process.pid) return true
    }
    return false
  }
  for (const pid of pids) {
    if (!ours(pid) || !read(`/proc/${pid}/cmdline`)?.includes('--type=renderer')) continue
    const status = read(`/proc/${pid}/status`) ?? ''
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
    const rss = kb('VmRSS') * 1024
    const peakRss = kb('VmHWM') * 1024
    if (Number.isFinite(rss) && Number.isFinite(peakRss)) found.set(pid, { pid, rss, peakRss })
  }
  return found
}

/**
 * The renderer that appeared since `before` (the one a freshly opened page runs in); the largest
 * if several did, undefined if none.
 */
export function newRenderer(before: Map<number, RendererMemory>): RendererMemory | undefined {
  return [...rendererMemory().values()]
    .filter(({ pid }) => !before.has(pid))
    .sort((a, b) => b.peakRss - a.peakRss)[0]
}

function parentOf(pid: number): number | undefined {
  // "pid (name) state ppid …": the name may hold spaces and parentheses; the last ")" ends it.
  const stat = read(`/proc/${pid}/stat`)
  const rest = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
  const parent = Number(rest?.[1])
  return Number.isInteger(parent) ? parent : undefined
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    return undefined // gone meanwhile
  }
}
