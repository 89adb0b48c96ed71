import type {
  ChangeDriver,
  DrawingShare,
  ProjectChangeItem,
  ProjectFigures,
  ProjectItem,
  ProjectMeasuredLine,
} from '#contract/project-bills.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'
import type { MeasuredFigure } from '../boq/write/part.ts'
import type { KeptUnits } from './kept-units.ts'

/** One drawing's priced bill, as its part of the project bill. */
export interface DrawingBill {
  itemId: string
  fileName: string
  versionNumber: number
  /** The job whose kept bill it is. */
  jobId: string
  items: Pick<
    PricedItem,
    'section' | 'code' | 'description' | 'unit' | 'rate' | 'quantity' | 'amount'
  >[]
  /** Its measured lines. */
  lines: MeasuredFigure[]
  total: number
  /** Its items are of the project's tables now (false: measured only, no items). */
  priced: boolean
}

/** Names in the order a person reads them (one collator: `localeCompare` makes one per call). */
const compare = new Intl.Collator().compare

/** Items are the same item across drawings when their code, description and unit are. */
function itemKey(item: Pick<PricedItem, 'code' | 'description' | 'unit'>): string {
  return `${item.code}\n${item.description}\n${item.unit}`
}

/** Sums float noise away: figures are billed to at most six decimals. */
function tidy(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

function sumAmounts(amounts: (number | null)[]): number | null {
  const priced = amounts.filter((amount): amount is number => amount !== null)
  return priced.length === 0 ? null : tidy(priced.reduce((sum, amount) => sum + amount, 0))
}

/** The drawings' bills summed item by item, each item with its share of every drawing. */
export function sumDrawings(
  units: KeptUnits | null,
  bills: readonly DrawingBill[],
): ProjectFigures {
  const items = new Map<string, ProjectItem & { rates: Set<number | null> }>()
  for (const bill of bills) {
    for (const item of bill.items) {
      const key = itemKey(item)
      let summed = items.get(key)
      if (!summed) {
        summed = {
          section: item.section,
          code: item.code,
          description: item.description,
          unit: item.unit,
          rate: null,
          quantity: 0,
          amount: null,
          byDrawing: [],
          rates: new Set(),
        }
        items.set(key, summed)
      }
      summed.rates.add(item.rate)
      const share = summed.byDrawing.find((one) => one.itemId === bill.itemId)
      if (share) {
        // One drawing's bill may give an item on several lines (several rules).
        share.quantity = tidy(share.quantity + item.quantity)
        share.amount = sumAmounts([share.amount, item.amount])
      } else {
        summed.byDrawing.push({
          itemId: bill.itemId,
          fileName: bill.fileName,
          versionNumber: bill.versionNumber,
          quantity: item.quantity,
          amount: item.amount,
        })
      }
    }
  }
  const summed = [...items.values()].map(({ rates, ...item }): ProjectItem => {
    const [rate] = rates
    return {
      ...item,
      rate: rates.size === 1 ? (rate ?? null) : null,
      quantity: tidy(item.byDrawing.reduce((sum, share) => sum + share.quantity, 0)),
      amount: sumAmounts(item.byDrawing.map((share) => share.amount)),
    }
  })
  summed.sort(
    (a, b) =>
      compare(a.section, b.section) ||
      compare(a.code, b.code) ||
      compare(a.description, b.description),
  )
  return {
    units: units ? { length: units.length, area: units.area } : null,
    items: summed,
    total: tidy(bills.reduce((sum, bill) => sum + bill.total, 0)),
  }
}

/**
 * The drawings' measured lines summed by kind, description and unit (a drawing's lines of one
 * key summed into its share), in the order kind, description; each with its drawings' shares.
 */
export function sumMeasured(bills: readonly DrawingBill[]): ProjectMeasuredLine[] {
  const lines = new Map<string, ProjectMeasuredLine>()
  for (const bill of bills) {
    for (const [kind, description, unit, quantity] of bill.lines) {
      const key = `${kind}\n${description}\n${unit}`
      let summed = lines.get(key)
      if (!summed) {
        summed = { kind, description, unit, quantity: 0, byDrawing: [] }
        lines.set(key, summed)
      }
      // A drawing's lines are summed one drawing after another: its share is the last one.
      const share = summed.byDrawing.at(-1)
      if (share?.itemId === bill.itemId) share.quantity = tidy(share.quantity + quantity)
      else summed.byDrawing.push({ itemId: bill.itemId, quantity })
    }
  }
  const order = { count: 0, length: 1, area: 2 }
  return [...lines.values()]
    .map((line) => ({
      ...line,
      quantity: tidy(line.byDrawing.reduce((sum, share) => sum + share.quantity, 0)),
    }))
    .sort((a, b) => order[a.kind] - order[b.kind] || compare(a.description, b.description))
}

/** Every item of either side, before and after, with the drawings whose share moved. */
export function compareFigures(
  before: ProjectFigures,
  after: ProjectFigures,
): { items: ProjectChangeItem[]; total: { before: number; after: number; change: number } } {
  const keys = new Map<string, { before?: ProjectItem; after?: ProjectItem }>()
  for (const item of before.items) keys.set(itemKey(item), { before: item })
  for (const item of after.items) {
    const key = itemKey(item)
    keys.set(key, { ...keys.get(key), after: item })
  }
  const items = [...keys.values()].map(({ before: was, after: now }): ProjectChangeItem => {
    const item = (now ?? was) as ProjectItem
    const from = figure(was)
    const to = figure(now)
    return {
      section: item.section,
      code: item.code,
      description: item.description,
      unit: item.unit,
      before: from,
      after: to,
      change: {
        quantity: tidy(to.quantity - from.quantity),
        amount:
          from.amount === null && to.amount === null
            ? null
            : tidy((to.amount ?? 0) - (from.amount ?? 0)),
      },
      drivenBy: drivers(was?.byDrawing ?? [], now?.byDrawing ?? []),
    }
  })
  return {
    items,
    total: { before: before.total, after: after.total, change: tidy(after.total - before.total) },
  }
}

function figure(item: ProjectItem | undefined): { quantity: number; amount: number | null } {
  return { quantity: item?.quantity ?? 0, amount: item ? item.amount : null }
}

/** The drawings whose share of an item differs (a new version, or a drawing in or out). */
function drivers(before: DrawingShare[], after: DrawingShare[]): ChangeDriver[] {
  const ids = [...new Set([...before, ...after].map((share) => share.itemId))]
  return ids.flatMap((id) => {
    const was = before.find((share) => share.itemId === id)
    const now = after.find((share) => share.itemId === id)
    const quantity = tidy((now?.quantity ?? 0) - (was?.quantity ?? 0))
    const amount =
      was?.amount == null && now?.amount == null
        ? null
        : tidy((now?.amount ?? 0) - (was?.amount ?? 0))
    if (quantity === 0 && (amount ?? 0) === 0) return []
    return [
      {
        itemId: id,
        fileName: (now ?? was)?.fileName ?? id,
        fromVersion: was?.versionNumber ?? null,
        toVersion: now?.versionNumber ?? null,
        quantity,
        amount,
      },
    ]
  })
}
