import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The page of a built app, as the tests' fake builds write it. */
const FAKE_INDEX = '<!doctype html><title>BOQ</title>'

/**
 * A built app's folder for a test, in a fresh temporary folder named after `prefix`: `index`
 * as index.html and `assets` under assets/ by name. The test removes it.
 */
export async function makeFakeDist(
  prefix: string,
  assets: Record<string, string | Uint8Array>,
  index = FAKE_INDEX,
): Promise<string> {
  const distDir = await mkdtemp(join(tmpdir(), prefix))
  await mkdir(join(distDir, 'assets'))
  await writeFile(join(distDir, 'index.html'), index)
  for (const [name, content] of Object.entries(assets)) {
    await writeFile(join(distDir, 'assets', name), content)
  }
  return distDir
}
