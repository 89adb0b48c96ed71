/**
 * publishBuild puts a new build into a dist/ that servers may be serving: nothing a page loaded
 * before needs goes missing, and chunks no build wrote for long are removed.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { publishBuild } from './publish-build.ts'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function folderOf(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'boq-publish-'))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true })
    writeFileSync(join(folder, name), text)
  }
  return folder
}

describe('publishBuild', () => {
  it('adds the new chunks beside the old ones and replaces index.html and the other files', () => {
    const dist = folderOf({
      'index.html': 'old page',
      'assets/index-OLD.js': 'old entry',
      'logo.svg': 'old logo',
    })
    const built = folderOf({
      'index.html': 'new page',
      'assets/index-NEW.js': 'new entry',
      'logo.svg': 'new logo',
      'fonts/a.woff2': 'font',
    })
    publishBuild(built, dist)
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('new page')
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual(['index-NEW.js', 'index-OLD.js'])
    expect(readFileSync(join(dist, 'logo.svg'), 'utf8')).toBe('new logo')
    expect(readFileSync(join(dist, 'fonts/a.woff2'), 'utf8')).toBe('font')
    expect(readdirSync(dist).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('removes chunks no build has written for half an hour, and keeps the ones this build has', () => {
    const dist = folderOf({
      'index.html': 'old page',
      'assets/gone-OLD.js': 'stale',
      'assets/kept-SAME.js': 'same',
    })
    const longAgo = new Date(Date.now() - 31 * 60_000)
    for (const name of ['gone-OLD.js', 'kept-SAME.js'])
      utimesSync(join(dist, 'assets', name), longAgo, longAgo)
    const built = folderOf({ 'index.html': 'new page', 'assets/kept-SAME.js': 'same' })
    publishBuild(built, dist)
    expect(readdirSync(join(dist, 'assets'))).toEqual(['kept-SAME.js'])
  })
})
