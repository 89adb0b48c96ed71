import { describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import { computeBoq } from '../measure/quantities.ts'
import type { Drawing } from '../model/drawing.ts'
import { detect } from './detect.ts'
import type { ReadOptions } from './drawing-builder.ts'
import { readDwg } from './dwg-reader.ts'
import { readDxf } from './dxf-reader.ts'
import { createReader } from './libredwg.ts'

async function read(name: string, options?: ReadOptions): Promise<Drawing> {
  const bytes = fixture(name)
  const detected = detect(bytes)
  if (detected.format !== 'dwg') return readDxf(bytes, options)
  return readDwg(await createReader(), bytes, detected.version, options)
}

const billOf = (drawing: Drawing) => computeBoq(drawing, { fileName: 'x', fileBytes: 1 })

// The picture costs the reading time; a bill alone (the CLI, engine.extract()) does not ask for it.
describe('the picture is read only when asked for', () => {
  it.each(['2018_Dynblocks.dwg', 'example_2018.dxf'])(
    '%s: none without asking, the same bill either way',
    async (name) => {
      const plain = await read(name)
      expect(plain.picture.modelSpace).toEqual([])
      expect(plain.picture.blocks.size).toBe(0)
      expect(plain.picture.layerColours.size).toBe(0)
      const pictured = await read(name, { picture: true })
      expect(pictured.picture.modelSpace.length).toBeGreaterThan(0)
      expect(pictured.picture.blocks.size).toBeGreaterThan(0)
      expect(billOf(plain)).toEqual(billOf(pictured))
    },
  )
})
