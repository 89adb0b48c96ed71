import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { createGzip } from 'node:zlib'
import { DxfWriter } from '../../server/testing/boq/dxf-writer.ts'

const LAYERS = 200
const BLOCKS = 500
const PER_ROW = 500
const SPACING = 20
/** Entities turned into text at a time: a million at once would hold gigabytes of pairs. */
const BATCH = 10_000

/** What a synthetic drawing weighs: as written, and gzip-compressed (as it would travel). */
export type WrittenDrawing = { bytes: number; gzipBytes: number }

/**
 * Writes a DXF of `entities` model-space entities to `path`: lines, circles and closed
 * polylines over 200 layers, and references of 500 small blocks, on a grid 500 wide, so the bill
 * has linework, areas and many block lines. Written as it is made, a batch at a time.
 */
export async function writeSyntheticDxf(path: string, entities: number): Promise<WrittenDrawing> {
  const w = new DxfWriter()
  for (let b = 0; b < BLOCKS; b++) {
    w.block(`B${b}`, (to, owner) => w.circle(to, owner, '0', [0, 0], 1 + (b % 5)))
  }
  // The layers table is written with the rest, before the entities that use them.
  for (let layer = 0; layer < LAYERS; layer++) w.layer(`L${layer}`, {})
  const section = '  0\nSECTION\n  2\nENTITIES\n'
  const text = w.toString()
  const at = text.indexOf(section)
  if (at < 0) throw new Error('The DXF writer wrote no ENTITIES section')

  const file = createWriteStream(path)
  const gzip = createGzip()
  let bytes = 0
  let gzipBytes = 0
  gzip.on('data', (chunk: Buffer) => {
    gzipBytes += chunk.byteLength
  })
  const gzipped = once(gzip, 'end')
  const write = async (chunk: string) => {
    const buffer = Buffer.from(chunk)
    bytes += buffer.byteLength
    gzip.write(buffer)
    if (!file.write(buffer)) await once(file, 'drain')
  }

  await write(text.slice(0, at + section.length))
  const owner = w.modelSpace
  for (let from = 0; from < entities; from += BATCH) {
    const to: (string | number)[] = []
    for (let i = from; i < Math.min(entities, from + BATCH); i++) entity(w, to, owner, i)
    const lines: string[] = []
    for (let i = 0; i < to.length; i += 2) {
      lines.push(String(to[i]).padStart(3, ' '), String(to[i + 1]))
    }
    await write(`${lines.join('\n')}\n`)
  }
  await write(text.slice(at + section.length))
  gzip.end()
  file.end()
  await Promise.all([gzipped, once(file, 'close')])
  return { bytes, gzipBytes }
}

function entity(w: DxfWriter, to: (string | number)[], owner: string, i: number) {
  const layer = `L${i % LAYERS}`
  const x = (i % PER_ROW) * SPACING
  const y = Math.floor(i / PER_ROW) * SPACING
  switch (i % 4) {
    case 0:
      w.line(to, owner, layer, [x, y], [x + 15, y + 5])
      break
    case 1:
      w.circle(to, owner, layer, [x, y], 4)
      break
    case 2:
      w.lwpolyline(
        to,
        owner,
        layer,
        [
          { x, y },
          { x: x + 10, y },
          { x: x + 10, y: y + 10 },
        ],
        true,
      )
      break
    default:
      w.insert(to, owner, layer, `B${i % BLOCKS}`, [x, y])
  }
}
