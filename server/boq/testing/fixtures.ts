import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The shared sample drawings, read where they are (../shared seen from the repository root). */
export const FIXTURES = resolve(import.meta.dirname, '../../../../shared/fixtures/dwg')

export const haveFixtures = existsSync(FIXTURES)

export function fixtureNames(ext: '.dwg' | '.dxf'): string[] {
  return haveFixtures
    ? readdirSync(FIXTURES)
        .filter((f) => f.endsWith(ext))
        .sort()
    : []
}

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)))
}
