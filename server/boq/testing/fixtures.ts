import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * The shared sample drawings, read where they are (../shared/fixtures/dwg seen from the repository
 * root) and never copied into the repository: the one place tests, browser tests and benches
 * find them.
 */
export const FIXTURES = resolve(import.meta.dirname, '../../../../shared/fixtures/dwg')

export const haveFixtures = existsSync(FIXTURES)

export function fixtureNames(ext: '.dwg' | '.dxf'): string[] {
  return haveFixtures
    ? readdirSync(FIXTURES)
        .filter((f) => f.endsWith(ext))
        .sort()
    : []
}

/** The path of one sample drawing, e.g. `fixturePath('example_2018.dwg')`. */
export function fixturePath(name: string): string {
  return join(FIXTURES, name)
}

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(name)))
}
