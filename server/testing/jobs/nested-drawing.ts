import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEMO_FOLDERS } from '../../seed/seed.ts'
import { DxfWriter } from '../boq/dxf-writer.ts'

/**
 * A drawing of deeply nested blocks, as DXF: model space holds `per` references of block L1,
 * each block L1…L(depth-1) holds `per` references of the next, and the deepest one a line. Seven
 * levels of ten (model space and six blocks) place 1,000,000 references of L6 in about 9 KB.
 */
export function nestedBlocksDxf(depth = 6, per = 10): string {
  const w = new DxfWriter()
  w.block(`L${depth}`, (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
  for (let level = depth - 1; level >= 1; level--) {
    w.block(`L${level}`, (to, owner) => {
      for (let i = 0; i < per; i++) w.insert(to, owner, '0', `L${level + 1}`, [i, 0])
    })
  }
  const { to, owner } = w.target('model')
  for (let i = 0; i < per; i++) w.insert(to, owner, 'Top', 'L1', [i, 0])
  return w.toString()
}

/**
 * Drops the nested drawing into the first demo folder of a data folder's local cloud (seeded),
 * named `.dwg` as the app requires: the engine tells DXF from the bytes.
 */
export async function dropNestedDrawing(dataDir: string, name = 'nested.dwg'): Promise<void> {
  const folder = join(dataDir, 'cloud', ...(DEMO_FOLDERS[0] as string).split('/'))
  await writeFile(join(folder, name), nestedBlocksDxf())
}
