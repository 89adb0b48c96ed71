import type {
  ChangeDriver,
  DrawingShare,
  ProjectChangeItem,
  ProjectFigures,
  ProjectItem,
} from '#contract/project-bills.ts'
import { itemKey, tidy } from './bill-sums.ts'

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
