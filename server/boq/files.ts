import { toCsv } from './csv.ts'
import type { Boq } from './schema.ts'
import { toXlsx } from './xlsx.ts'

export type OutputFormat = 'xlsx' | 'csv' | 'json'

/** A bill written out: the files asked for, and its warnings (all a job needs to show). */
export type BoqFiles = {
  warnings: string[]
  files: Partial<Record<OutputFormat, Uint8Array>>
}

/** Writes the bill in each format; the engine runs this in its worker, off the host's thread. */
export async function renderFiles(boq: Boq, formats: OutputFormat[]): Promise<BoqFiles> {
  const files: BoqFiles['files'] = {}
  const text = new TextEncoder()
  for (const format of new Set(formats)) {
    if (format === 'xlsx') files.xlsx = await toXlsx(boq)
    else if (format === 'csv') files.csv = text.encode(toCsv(boq))
    else files.json = text.encode(`${JSON.stringify(boq)}\n`)
  }
  return { warnings: [...boq.warnings], files }
}
