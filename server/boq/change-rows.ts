import type { ChangeBill, ChangeLine, ComparedBill } from '../../contract/compare.ts'
import type { Cell, Table } from './rows.ts'

const STATE_WORDS: Record<ChangeLine['state'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  unchanged: 'unchanged',
}

/** A side of the comparison for a person: the file and its version when known. */
export function describeCompared(side: ComparedBill): string {
  return side.versionNumber === null
    ? side.fileName
    : `${side.fileName}, version ${side.versionNumber}`
}

/**
 * The change bill as a table (the workbook's Changes sheet, the compare download): one row per
 * item of either bill, largest change first; under it, first that the drawings are two different
 * ones when they are, then what was compared, and the notes.
 */
export function changesTable(changes: ChangeBill): Table {
  const lines = changes.lines
  const measure = (i: number) => (lines[i]?.kind === 'count' ? 'count' : 'measure')
  return {
    name: 'Changes',
    columns: [
      { header: 'Item', format: 'text' },
      { header: 'Description', format: 'text' },
      { header: 'Before', format: measure },
      { header: 'After', format: measure },
      { header: 'Change', format: measure },
      { header: 'Change (%)', format: 'measure' },
      { header: 'Unit', format: 'text' },
      { header: 'State', format: 'text' },
    ],
    rows: lines.map((line): Cell[] => [
      line.ref,
      line.description,
      line.before,
      line.after,
      line.change,
      line.changePercent,
      line.unit,
      STATE_WORDS[line.state],
    ]),
    empty: 'Neither bill has an item.',
    notes: [
      ...(changes.differentDrawings === undefined
        ? []
        : [['Drawings', changes.differentDrawings] as Cell[]]),
      ['Before', describeCompared(changes.from)],
      ['After', describeCompared(changes.to)],
      ...changes.notes.map((note): Cell[] => ['Note', note]),
    ],
  }
}
