import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SAMPLE_DRAWINGS } from '../../config.ts'

/** The sample drawings kept in the repository (fixtures/drawings), where tests find them. */
export const FIXTURES = SAMPLE_DRAWINGS

export function fixtureNames(ext: '.dwg' | '.dxf'): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(ext))
    .sort()
}

/** The path of one sample drawing, e.g. `fixturePath('example_2018.dwg')`. */
export function fixturePath(name: string): string {
  return join(FIXTURES, name)
}

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(name)))
}
