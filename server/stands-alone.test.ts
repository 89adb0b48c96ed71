import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig, repoRoot } from './config.ts'
import { FIXTURES, fixtureNames } from './testing/boq/fixtures.ts'

// A clone with nothing beside it must run: no file may reach for the folder that sits next to the
// repository on the developers' machines. (Written in two pieces so this file does not name it.)
const OUTSIDE = `..${'/'}shared`
const NOT_SOURCE = new Set([
  'node_modules',
  '.git',
  'dist',
  'data',
  'test-results',
  'coverage',
  '.bench',
])
const BINARY = /\.(dwg|png|jpe?g|ico|woff2?|xlsx|pdf|gz)$/i

function projectFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return projectFiles(path)
    return entry.isFile() && !BINARY.test(entry.name) ? [path] : []
  })
}

describe('the repository stands on its own', () => {
  it(`no file of the project names ${OUTSIDE}`, () => {
    const naming = projectFiles(repoRoot)
      .filter((path) => readFileSync(path, 'utf8').includes(OUTSIDE))
      .map((path) => relative(repoRoot, path))
    expect(naming).toEqual([])
  })

  it('the sample drawings are inside it, and seed the demo cloud by default', () => {
    expect(relative(repoRoot, FIXTURES)).toBe(join('fixtures', 'drawings'))
    expect(fixtureNames('.dwg').length).toBeGreaterThanOrEqual(20)
    expect(fixtureNames('.dxf')).toEqual([
      'example_2000.dxf',
      'example_2018.dxf',
      'r11_block.dxf',
      'sample_r14.dxf',
    ])
    expect(loadConfig({}).seedDir).toBe(FIXTURES)
  })
})
