import { setImmediate } from 'node:timers/promises'
import type { BillKind } from '#contract/bill-kinds.ts'
import type {
  DrawingShare,
  MeasuredShare,
  ProjectFigures,
  ProjectItem,
  ProjectMeasuredLine,
  ProjectSection,
} from '#contract/project-bills.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'
import type { MeasuredFigure, PartItem } from '../boq/write/part.ts'
import type { KeptUnits } from './kept-units.ts'
import { summedRows } from './summed-rows.ts'

/** One drawing's priced bill, as its part of the project bill. */
export interface DrawingBill {
  itemId: string
  fileName: string
  versionNumber: number
  /** The job whose kept bill it is. */
  jobId: string
  items: PartItem[]
  /** Its measured lines. */
  lines: MeasuredFigure[]
  total: number
  /** Its items are of the project's tables now (false: measured only, no items). */
  priced: boolean
}

/** The figures summed, and the JSON of their two big parts, made as the rows were. */
export interface SummedFigures {
  priced: ProjectFigures
  measured: ProjectMeasuredLine[]
  json: { priced: string; measured: string }
}

/** Names in the order a person reads them (one collator: `localeCompare` makes one per call). */
const compare = new Intl.Collator().compare

/** Items are the same item across drawings when their code, description and unit are. */
export function itemKey(item: Pick<PricedItem, 'code' | 'description' | 'unit'>): string {
  return `${item.code}\n${item.description}\n${item.unit}`
}

/** Sums float noise away: figures are billed to at most six decimals. */
export function tidy(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

function sumAmounts(amounts: (number | null)[]): number | null {
  const priced = amounts.filter((amount): amount is number => amount !== null)
  return priced.length === 0 ? null : tidy(priced.reduce((sum, amount) => sum + amount, 0))
}

/** A drawing's share of an item, with the rates its lines of the item were priced at. */
type ItemShare = DrawingShare & { rates: (number | null)[]; item: PartItem }

/** Drawings put in between two looks at the other requests waiting. */
const DRAWINGS_AT_ONCE = 5

const KIND_ORDER = { count: 0, length: 1, area: 2 }

/** The items: by section, code and description, each with its drawings' shares. */
const itemRows = () =>
  summedRows<ItemShare, ProjectItem>({
    same: (a, b) =>
      a.fileName === b.fileName &&
      a.versionNumber === b.versionNumber &&
      a.quantity === b.quantity &&
      a.amount === b.amount &&
      a.item.section === b.item.section &&
      a.rates.length === b.rates.length &&
      a.rates.every((rate, index) => rate === b.rates[index]),
    make(_key, shares) {
      const { section, code, description, unit } = (shares[0] as ItemShare).item
      const rates = new Set(shares.flatMap((share) => share.rates))
      const [rate] = rates
      const byDrawing = shares.map(
        ({ itemId, fileName, versionNumber, quantity, amount }): DrawingShare => ({
          itemId,
          fileName,
          versionNumber,
          quantity,
          amount,
        }),
      )
      return {
        section,
        code,
        description,
        unit,
        rate: rates.size === 1 ? (rate ?? null) : null,
        quantity: tidy(byDrawing.reduce((sum, share) => sum + share.quantity, 0)),
        amount: sumAmounts(byDrawing.map((share) => share.amount)),
        byDrawing,
      }
    },
    compare: (a, b) =>
      compare(a.section, b.section) ||
      compare(a.code, b.code) ||
      compare(a.description, b.description) ||
      compare(a.unit, b.unit),
  })

/** The measured lines: by kind, then description, each with its drawings' shares. */
const lineRows = () =>
  summedRows<number, ProjectMeasuredLine>({
    same: (a, b) => a === b,
    make(key, quantities, drawingIds) {
      const { kind, unit, description } = lineOfKey(key)
      const byDrawing = quantities.map(
        (quantity, index): MeasuredShare => ({
          itemId: drawingIds[index] as string,
          quantity,
        }),
      )
      return {
        kind,
        description,
        unit,
        quantity: tidy(quantities.reduce((sum, quantity) => sum + quantity, 0)),
        byDrawing,
      }
    },
    compare: (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      compare(a.description, b.description) ||
      compare(a.unit, b.unit),
  })

/** A drawing's shares of the items, by item (one item on several lines summed into its share). */
function itemSharesOf(bill: DrawingBill): Map<string, ItemShare> {
  const shares = new Map<string, ItemShare>()
  for (const item of bill.items) {
    const key = itemKey(item)
    const share = shares.get(key)
    if (share) {
      share.quantity = tidy(share.quantity + item.quantity)
      share.amount = sumAmounts([share.amount, item.amount])
      share.rates.push(item.rate)
    } else {
      shares.set(key, {
        itemId: bill.itemId,
        fileName: bill.fileName,
        versionNumber: bill.versionNumber,
        quantity: item.quantity,
        amount: item.amount,
        rates: [item.rate],
        item,
      })
    }
  }
  return shares
}

/** A measured line's key: its kind, unit and description (the one that may hold any character). */
function lineKey(line: MeasuredFigure): string {
  return `${line[0]}\n${line[2]}\n${line[1]}`
}

function lineOfKey(key: string): Pick<ProjectMeasuredLine, 'kind' | 'unit' | 'description'> {
  const kindEnd = key.indexOf('\n')
  const unitEnd = key.indexOf('\n', kindEnd + 1)
  return {
    kind: key.slice(0, kindEnd) as BillKind,
    unit: key.slice(kindEnd + 1, unitEnd),
    description: key.slice(unitEnd + 1),
  }
}

/** A drawing's quantity of each measured line, by its key (its lines of one key summed). */
function lineSharesOf(bill: DrawingBill): Map<string, number> {
  const shares = new Map<string, number>()
  for (const line of bill.lines) {
    const key = lineKey(line)
    const share = shares.get(key)
    shares.set(key, share === undefined ? line[3] : tidy(share + line[3]))
  }
  return shares
}

/** A section's title in the project's classification (undefined: none). */
export type SectionTitles = (code: string) => string | undefined

/** The items' sections, in the items' order, each with its title. */
function sectionsOf(items: readonly ProjectItem[], titleOf: SectionTitles): ProjectSection[] {
  const codes = [...new Set(items.map((item) => item.section))]
  return codes.map((code) => ({ code, title: (code && titleOf(code)) || '' }))
}

/**
 * A project bill's figures, kept summed between its assemblies: its drawings' bills summed item by
 * item and line by line, each row with every drawing's share. Summed again, only the drawings
 * whose part, name or version changed are taken out and put in again, and only the rows whose
 * shares changed are made again (a bill asked again as it was is the same figures).
 */
export function billSums() {
  let drawings = new Map<string, DrawingBill>()
  let order: string[] = []
  const items = itemRows()
  const lines = lineRows()
  let total = 0
  /** The sum being made: one at a time (each changes the rows the next starts from). */
  let summing: Promise<unknown> = Promise.resolve()

  async function sum(
    units: KeptUnits | null,
    bills: readonly DrawingBill[],
    titleOf: SectionTitles,
  ): Promise<SummedFigures> {
    const next = new Map(bills.map((bill) => [bill.itemId, bill]))
    for (const id of drawings.keys()) {
      if (next.has(id)) continue
      items.put(id, undefined)
      lines.put(id, undefined)
    }
    let put = 0
    for (const bill of bills) {
      const was = drawings.get(bill.itemId)
      if (was?.lines !== bill.lines) lines.put(bill.itemId, lineSharesOf(bill))
      const named = was?.fileName === bill.fileName && was.versionNumber === bill.versionNumber
      if (was?.items !== bill.items || !named) items.put(bill.itemId, itemSharesOf(bill))
      // Other requests are answered between drawings put in (a bill summed from the start).
      if (was !== bill && ++put % DRAWINGS_AT_ONCE === 0) await setImmediate()
    }
    const ids = bills.map((bill) => bill.itemId)
    if (ids.length !== order.length || ids.some((id, index) => id !== order[index])) {
      items.remakeAll()
      lines.remakeAll()
    }
    drawings = next
    order = ids
    total = tidy(bills.reduce((sum, bill) => sum + bill.total, 0))

    const itemsNow = await items.rows(order)
    const linesNow = await lines.rows(order)
    const billUnits = units ? { length: units.length, area: units.area } : null
    const sections = sectionsOf(itemsNow.rows, titleOf)
    return {
      priced: { units: billUnits, items: itemsNow.rows, sections, total },
      measured: linesNow.rows,
      json: {
        priced: `{"units":${JSON.stringify(billUnits)},"items":${itemsNow.json},"sections":${JSON.stringify(sections)},"total":${JSON.stringify(total)}}`,
        measured: linesNow.json,
      },
    }
  }

  return {
    sum(
      units: KeptUnits | null,
      bills: readonly DrawingBill[],
      titleOf: SectionTitles = () => undefined,
    ): Promise<SummedFigures> {
      const summed = summing.then(() => sum(units, bills, titleOf))
      summing = summed.catch(() => {})
      return summed
    },
  }
}
