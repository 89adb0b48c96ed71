import { readFile, stat } from 'node:fs/promises'
import { type BillSettings, checkBillSettings } from '#contract/bill-settings.ts'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import { RulesFileError } from './cli-rules.ts'

/**
 * A settings file that cannot be used: one line naming the file and the field. A kind of rules
 * file error, so that the command stops on it as on a bad rules file (exit 2, nothing written).
 */
export class SettingsFileError extends RulesFileError {}

/**
 * The bill settings of `--settings settings.json` (the shape a project's bill settings have),
 * read and checked whole before any drawing is read. `at` resolves a typed path.
 */
export async function readSettings(
  path: string,
  at: (path: string) => string,
): Promise<BillSettings> {
  if (!/\.json$/i.test(path)) throw new SettingsFileError(`${path}: not a JSON file (by its name)`)
  let text: string
  try {
    const size = (await stat(at(path))).size
    if (size > MAX_RULES_FILE_BYTES)
      throw new SettingsFileError(
        `${path}: too large (at most ${MAX_RULES_FILE_BYTES / 1024 / 1024} MB)`,
      )
    text = await readFile(at(path), 'utf8')
  } catch (error) {
    if (error instanceof SettingsFileError) throw error
    const code = (error as { code?: string })?.code
    if (code === 'ENOENT') throw new SettingsFileError(`${path}: no such file`)
    if (code === 'EISDIR') throw new SettingsFileError(`${path}: is a folder, not a file`)
    if (code === 'EACCES') throw new SettingsFileError(`${path}: permission denied`)
    throw error
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SettingsFileError(`${path}: not JSON (${(error as Error).message})`)
  }
  const checked = checkBillSettings(value)
  if ('settings' in checked) return checked.settings
  const [first, ...rest] = checked.problems
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : ''
  throw new SettingsFileError(`${path}: ${first}${more}`.replace(/\s+/g, ' '))
}
