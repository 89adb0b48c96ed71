import * as v from 'valibot'
import type { ComparedBill } from '#contract/compare.ts'
import type { PricedBill } from '#contract/takeoff-rules.ts'
import { compareBills } from '../compare/compare.ts'
import type { RowFindings } from '../locations/row-problems.ts'
import { type Boq, BoqSchema } from '../model/schema.ts'
import { toCsv } from './csv.ts'
import { type PartAnswer, partOf } from './part.ts'
import { toXlsx } from './xlsx.ts'

/**
 * The bill's files, the drawing's geometry for the drawing view (written by the worker,
 * gzip-compressed), and the bill's part of a project bill (its figures alone, as JSON).
 */
export type OutputFormat = 'xlsx' | 'csv' | 'json' | 'geometry' | 'part'

/**
 * What the worker can write: the outputs, or `zones` alone (the zones found, the bill's units and
 * its warnings, as JSON: what a preview of a locations table shows, without the bill's weight).
 */
export type WrittenFormat = OutputFormat | 'zones'

/** An earlier bill to compare the new one with: its JSON as kept, and which bills the two are. */
export type ChangesFrom = { json: Uint8Array; from: ComparedBill; to: ComparedBill }

/** A bill written out: the files asked for, and its warnings (all a job needs to show). */
export type BoqFiles = {
  warnings: string[]
  files: Partial<Record<WrittenFormat, Uint8Array>>
  /** The earlier bill the workbook's Changes sheet compares with; null when it has none. */
  comparedWith: ComparedBill | null
  /** How many of the bill's lines differ from that earlier bill; null when it has none. */
  changedLines: number | null
  /** The files carry a priced bill. */
  priced: boolean
}

/**
 * Writes the bill in each format; the engine runs this in its worker, off the host's thread. With
 * an earlier bill, the workbook gets a Changes sheet against it (an earlier bill that is not a
 * BOQ of this schema, say of an older version of BOQ, is left out). With a priced bill (or one
 * already on the BOQ), every file gives it first: the JSON's `priced`, the workbook's first sheet
 * and the CSV's first sections. The zones file carries `byRow`, the problems of each row of the
 * locations table the bill was measured with (they stay out of the bill: an extraction's JSON
 * says what it said).
 */
export async function renderFiles(
  measured: Boq,
  formats: WrittenFormat[],
  changesFrom?: ChangesFrom,
  priced?: PricedBill,
  byRow?: RowFindings,
): Promise<BoqFiles> {
  const boq = priced ? { ...measured, priced } : measured
  const earlier = changesFrom ? readBill(changesFrom.json) : null
  const changes =
    changesFrom && earlier
      ? { from: changesFrom.from, to: changesFrom.to, ...compareBills(earlier, boq) }
      : undefined
  const files: BoqFiles['files'] = {}
  const text = new TextEncoder()
  for (const format of new Set(formats)) {
    if (format === 'xlsx') {
      // The version written for is the newer side of its change bill, when it has one.
      const drawingVersion = changesFrom?.to.versionNumber ?? null
      files.xlsx = await toXlsx(boq, { changes, drawingVersion })
    } else if (format === 'csv') files.csv = text.encode(toCsv(boq))
    else if (format === 'json') files.json = text.encode(`${JSON.stringify(boq)}\n`)
    else if (format === 'part') {
      const answer: PartAnswer = { part: partOf(boq, boq.priced) }
      files.part = text.encode(JSON.stringify(answer))
    } else if (format === 'zones') files.zones = text.encode(JSON.stringify(zonesOf(boq, byRow)))
  }
  return {
    // The pricing's own warnings (a formula that gave no number) are the job's too.
    warnings: [...boq.warnings, ...(boq.priced?.warnings ?? [])],
    files,
    comparedWith: changes ? changes.from : null,
    changedLines: changes
      ? changes.lines.filter((line) => line.state !== 'unchanged').length
      : null,
    priced: boq.priced !== undefined,
  }
}

/** The zones the bill was measured with, their units, every warning of the read, each row's. */
function zonesOf(boq: Boq, byRow: RowFindings | undefined) {
  return {
    ...(byRow ? { byRow } : {}),
    units: { length: boq.units.length, area: boq.units.area },
    zones: boq.zones ?? [],
    warnings: boq.warnings,
  }
}

function readBill(json: Uint8Array): Boq | null {
  try {
    const parsed = v.safeParse(BoqSchema, JSON.parse(new TextDecoder().decode(json)))
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}
