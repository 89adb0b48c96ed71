import { execFile } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, delimiter, extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { parse } from 'csv-parse/sync'

/** LibreOffice's binary on PATH, or a failure that says how to get it. */
export function soffice(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, 'soffice')
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {}
  }
  throw new Error('LibreOffice is needed for this test: apt-get install -y libreoffice-calc')
}

/**
 * LibreOffice's settings for a profile: recalculate every formula when a workbook is opened. By
 * default it shows the results a workbook stores, which would prove nothing about its formulas.
 */
const ALWAYS_RECALCULATE = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

/**
 * A file converted by LibreOffice (`pdf`, `csv`…) into `dir/<to>/`, with a profile of its own in
 * `dir` so that runs side by side do not share (and lock) one, which recalculates every formula
 * on opening; the path of what it wrote.
 */
export async function convertWithLibreOffice(
  dir: string,
  file: string,
  to: string,
): Promise<string> {
  const out = join(dir, to.split(':')[0] ?? to)
  mkdirSync(out, { recursive: true })
  const settings = join(dir, 'profile', 'user', 'registrymodifications.xcu')
  if (!existsSync(settings)) {
    mkdirSync(join(dir, 'profile', 'user'), { recursive: true })
    writeFileSync(settings, ALWAYS_RECALCULATE)
  }
  await promisify(execFile)(
    soffice(),
    [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--headless',
      '--convert-to',
      to,
      '--outdir',
      out,
      file,
    ],
    { timeout: 150_000 },
  )
  return join(out, `${basename(file, extname(file))}.${to.split(':')[0]}`)
}

const CSV_FILTER = 'Text - txt - csv (StarCalc)'

/**
 * A workbook's first sheet as LibreOffice computes and shows it: its formulas evaluated, each
 * cell's text as its number format prints it (`1,004.80`), row by row.
 */
export async function printedFirstSheet(dir: string, xlsx: string): Promise<string[][]> {
  // Comma, double quote, UTF-8, from line 1, …, cells' text as shown (their number formats).
  const csv = await convertWithLibreOffice(
    dir,
    xlsx,
    `csv:${CSV_FILTER}:44,34,76,1,,0,false,true,true`,
  )
  return parse(readFileSync(csv, 'utf8'), { relax_column_count: true }) as string[][]
}
