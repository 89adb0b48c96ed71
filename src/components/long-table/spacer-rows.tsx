/** The height of the rows not drawn above or below a long table's view, so its scrollbar is true. */
export function SpacerRows({ height }: { height: number }) {
  if (height <= 0) return null
  return (
    <tbody aria-hidden="true">
      <tr style={{ height }} />
    </tbody>
  )
}
