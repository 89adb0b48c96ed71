import {
  LOCATION_COLUMNS,
  type LocationRow,
  MAX_LOCATION_CELL_LENGTH,
  MAX_LOCATION_ROWS,
} from '#contract/locations.ts'
import { quoted, type RuleProblem, RulesError } from '../price/errors.ts'
import { compileGlob, type Glob, isGlobError } from '../price/glob.ts'
import { readTable, type TableFormat } from '../price/table.ts'

/**
 * A locations table checked and compiled once: globs by the rules' own linear matcher, label
 * sources parsed. Every wrong row is named; nothing half-valid is used.
 */

export type LabelSource =
  | { source: 'text' }
  | { source: 'attribute'; tag: string }
  | { source: 'layer' }

export type CompiledLocation = {
  /** 1-based, as the person sees it. */
  row: number
  layer: Glob
  label: LabelSource
  /** null: labels from any layer. */
  labelLayer: Glob | null
}

export type CompiledLocations = { rows: CompiledLocation[] }

function labelOf(text: string): LabelSource | null {
  const value = text.trim()
  const lower = value.toLowerCase()
  if (lower === 'text') return { source: 'text' }
  if (lower === 'layer') return { source: 'layer' }
  if (lower.startsWith('attribute:')) {
    const tag = value.slice('attribute:'.length).trim()
    return tag ? { source: 'attribute', tag } : null
  }
  return null
}

/** The rows checked: the compiled table, or the problems naming each wrong row. */
export function compileLocations(
  rows: LocationRow[],
  rowNumber: (index: number) => number = (i) => i + 1,
): { compiled: CompiledLocations; problems: RuleProblem[] } {
  const problems: RuleProblem[] = []
  const compiled: CompiledLocation[] = []
  if (rows.length > MAX_LOCATION_ROWS) {
    problems.push({
      message: `the table has ${rows.length.toLocaleString('en')} rows; at most ${MAX_LOCATION_ROWS.toLocaleString('en')} are taken`,
    })
    return { compiled: { rows: [] }, problems }
  }
  rows.forEach((entry, i) => {
    const row = rowNumber(i)
    const before = problems.length
    const cell = (name: string, value: string | undefined) => {
      if ((value ?? '').length > MAX_LOCATION_CELL_LENGTH)
        problems.push({
          row,
          message: `${name} is longer than ${MAX_LOCATION_CELL_LENGTH} characters`,
        })
    }
    cell('layer', entry.layer)
    cell('label', entry.label)
    cell('labelLayer', entry.labelLayer)
    if (problems.length > before) return
    const layerSource = (entry.layer ?? '').trim()
    if (!layerSource)
      problems.push({
        row,
        message: 'layer is empty: say which layers hold the zones (a glob, e.g. A-AREA or *-SPACE)',
      })
    const layer = compileGlob(layerSource)
    if (isGlobError(layer)) problems.push({ row, message: `layer: ${layer.error}` })
    const label = labelOf(entry.label ?? '')
    if (!label)
      problems.push({
        row,
        message: `label ${quoted(entry.label ?? '')} is not text, attribute:TAG or layer`,
      })
    const labelLayerSource = (entry.labelLayer ?? '').trim()
    const labelLayer = labelLayerSource ? compileGlob(labelLayerSource) : null
    if (labelLayer && isGlobError(labelLayer))
      problems.push({ row, message: `labelLayer: ${labelLayer.error}` })
    if (problems.length > before || isGlobError(layer) || !label) return
    if (labelLayer && isGlobError(labelLayer)) return
    compiled.push({ row, layer, label, labelLayer })
  })
  return { compiled: { rows: compiled }, problems }
}

/** Rows checked and compiled; throws a RulesError naming the rows. */
export function checkedLocations(rows: LocationRow[]): CompiledLocations {
  const { compiled, problems } = compileLocations(rows)
  if (problems.length > 0) throw new RulesError(problems)
  return compiled
}

export const LOCATIONS_TABLE = {
  columns: LOCATION_COLUMNS.map((name) => name.toLowerCase()),
  listKey: 'locations',
  sheet: 'locations',
}

/** A locations file (CSV, XLSX, JSON) read and checked whole: its rows, or a RulesError. */
export async function readLocations(
  bytes: Uint8Array,
  format: TableFormat,
): Promise<LocationRow[]> {
  const { rows } = await readTable(bytes, format, LOCATIONS_TABLE)
  const locations: LocationRow[] = rows.map(({ cells }) => ({
    layer: cells.layer ?? '',
    label: cells.label ?? '',
    ...(cells.labellayer ? { labelLayer: cells.labellayer } : {}),
  }))
  const { problems } = compileLocations(locations, (i) => rows[i].row)
  if (problems.length > 0) throw new RulesError(problems)
  return locations
}
