import { readFile } from 'node:fs/promises'
import type { Classification } from '../price/classification.ts'
import type { CompiledRules } from '../price/compile.ts'
import { RulesError } from '../price/errors.ts'
import { compileClassification, compileRuleSet } from '../price/price.ts'
import { readClassification, readRules, tableFormatOf } from '../price/read.ts'

/** Takeoff rules (and a classification) read for the command line, ready to price each bill. */
export type Pricing = { rules: CompiledRules; classification?: Classification }

/** A rules or classification file that cannot be used: one line, naming the file and the row. */
export class RulesFileError extends Error {}

/**
 * The rules file and the classification file, read and checked whole before any drawing is
 * read, so that a bad one stops the command with nothing written. `at` resolves a typed path.
 */
export async function readPricing(
  rulesPath: string,
  classificationPath: string | undefined,
  at: (path: string) => string,
): Promise<Pricing> {
  const rules = compileRuleSet(
    await readTableFile(rulesPath, at, (bytes, format) => readRules(bytes, format)),
  )
  if (classificationPath === undefined) return { rules }
  const entries = await readTableFile(classificationPath, at, (bytes, format) =>
    readClassification(bytes, format),
  )
  return { rules, classification: compileClassification(entries) }
}

/** A table file (CSV, XLSX, JSON) read by `read`; any problem is one line naming the file. */
export async function readTableFile<T>(
  path: string,
  at: (path: string) => string,
  read: (bytes: Uint8Array, format: NonNullable<ReturnType<typeof tableFormatOf>>) => Promise<T>,
): Promise<T> {
  const format = tableFormatOf(path)
  if (!format) throw new RulesFileError(`${path}: not a CSV, XLSX or JSON file (by its name)`)
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await readFile(at(path)))
  } catch (error) {
    const code = (error as { code?: string })?.code
    if (code === 'ENOENT') throw new RulesFileError(`${path}: no such file`)
    if (code === 'EISDIR') throw new RulesFileError(`${path}: is a folder, not a file`)
    if (code === 'EACCES') throw new RulesFileError(`${path}: permission denied`)
    throw error
  }
  try {
    return await read(bytes, format)
  } catch (error) {
    if (!(error instanceof RulesError)) throw error
    // One line, whatever the cell that is wrong holds.
    throw new RulesFileError(`${path}: ${error.message.replace(/\s+/g, ' ')}`)
  }
}
