import { describe, expect, it } from 'vitest'
import { fixture, fixtureNames } from '../../testing/boq/fixtures.ts'
import { detect } from './detect.ts'
import { readDwg } from './dwg-reader.ts'
import { createReader } from './libredwg.ts'

// The walker reads struct fields straight from WebAssembly memory; in verify mode every such read
// is checked against the binding's own getter. Both ways must give the same drawing.
describe('direct memory reads agree with the binding getters', () => {
  it.each(fixtureNames('.dwg'))('%s', async (name) => {
    const bytes = fixture(name)
    const detected = detect(bytes)
    const version = detected.format === 'dwg' ? detected.version : ''
    const fast = readDwg(await createReader(), bytes, version, { picture: true })
    const checked = readDwg(await createReader(), bytes, version, { verify: true, picture: true })
    expect(fast).toEqual(checked)
  })
})

describe('the instance after a drawing', () => {
  it('has its own text decoder back (a pre-2007 drawing sets its code page’s for the walk)', async () => {
    const lib = await createReader()
    const binding = lib as unknown as { decoder?: TextDecoder }
    const own = binding.decoder
    const drawing = readDwg(lib, fixture('example_2000.dwg'), 'AC1015')
    expect(drawing.inserts.length).toBeGreaterThan(0)
    expect(binding.decoder).toBe(own)
  })
})
