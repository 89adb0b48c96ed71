/** Said in place of a table with no rows, or none the filter keeps. */
export function EmptyTable({ total, filter }: { total: number; filter: string }) {
  return (
    <p className="py-2 text-sm text-slate-500">
      {total === 0 ? 'Nothing here.' : `No row matches “${filter.trim()}”.`}
    </p>
  )
}
