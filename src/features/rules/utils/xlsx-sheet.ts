/**
 * The rows of an XLSX workbook's sheet, read in the browser for the import's question (what the
 * file holds) before it is sent: the server reads and checks the file again when it is saved.
 * A workbook is a zip of XML parts; the browser inflates them (DecompressionStream) and parses
 * them (DOMParser).
 */

/** The sheet named `preferred`, else the first: each row's cell texts from column A (none skipped). */
export async function xlsxSheetRows(bytes: Uint8Array, preferred: string): Promise<string[][]> {
  const parts = zipParts(bytes)
  const xml = async (name: string) => {
    const part = parts.get(name)
    return part ? parseXml(await inflated(bytes, part)) : undefined
  }
  const book = await xml('xl/workbook.xml')
  if (!book) throw new Error('the file is not an XLSX workbook')
  const sheets = elements(book, 'sheet')
  const sheet = sheets.find((s) => s.getAttribute('name') === preferred) ?? sheets[0]
  if (!sheet) throw new Error('the workbook has no sheet')
  const rels = await xml('xl/_rels/workbook.xml.rels')
  const id = relationshipId(sheet)
  const target = rels
    ? elements(rels, 'Relationship')
        .find((rel) => rel.getAttribute('Id') === id)
        ?.getAttribute('Target')
    : undefined
  const path = target
    ? target.startsWith('/')
      ? target.slice(1)
      : `xl/${target}`
    : 'xl/worksheets/sheet1.xml'
  const data = await xml(path)
  if (!data) throw new Error('the workbook’s sheet cannot be found')
  const shared = await xml('xl/sharedStrings.xml')
  const strings = shared ? elements(shared, 'si').map(stringText) : []
  return sheetRows(data, strings)
}

/** Where a zip's part is: its method, its compressed size, its local header's offset. */
type ZipPart = { method: number; size: number; offset: number }

/** The parts of a zip by name, from its central directory. */
function zipParts(bytes: Uint8Array): Map<string, ZipPart> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts = new Map<string, ZipPart>()
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) throw new Error('the file is not an XLSX workbook')
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const names = new TextDecoder()
  for (let i = 0; i < count && at + 46 <= bytes.length; i += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) break
    const nameLength = view.getUint16(at + 28, true)
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    parts.set(name, {
      method: view.getUint16(at + 10, true),
      size: view.getUint32(at + 20, true),
      offset: view.getUint32(at + 42, true),
    })
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
  return parts
}

/** A part's text: stored as it is, or deflated. */
async function inflated(bytes: Uint8Array, part: ZipPart): Promise<string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const start =
    part.offset +
    30 +
    view.getUint16(part.offset + 26, true) +
    view.getUint16(part.offset + 28, true)
  const data = bytes.slice(start, start + part.size)
  if (part.method === 0) return new TextDecoder().decode(data)
  if (part.method !== 8) throw new Error('the workbook is packed in a way that is not read here')
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'))
  return new Response(stream).text()
}

function parseXml(text: string): Document {
  const document = new DOMParser().parseFromString(text, 'application/xml')
  if (document.getElementsByTagName('parsererror').length > 0) {
    throw new Error('the workbook’s parts cannot be read')
  }
  return document
}

const elements = (node: Document | Element, name: string) =>
  Array.from(node.getElementsByTagNameNS('*', name))

/** A sheet's relationship id (`r:id`, whatever the prefix). */
function relationshipId(sheet: Element): string | null {
  for (const attribute of Array.from(sheet.attributes)) {
    if (attribute.localName === 'id' && attribute.namespaceURI?.includes('relationships')) {
      return attribute.value
    }
  }
  return null
}

/** A shared or inline string's text: its runs put together, without phonetic guides. */
function stringText(node: Element): string {
  return elements(node, 't')
    .filter((t) => t.parentElement?.localName !== 'rPh')
    .map((t) => t.textContent ?? '')
    .join('')
}

/** Each row's cells as text, placed by their column letters; rows in order, gaps as empty rows. */
function sheetRows(sheet: Document, strings: string[]): string[][] {
  const rows: string[][] = []
  for (const row of elements(sheet, 'row')) {
    const number = Number(row.getAttribute('r')) || rows.length + 1
    while (rows.length < number - 1) rows.push([])
    const cells: string[] = []
    for (const cell of elements(row, 'c')) {
      const column = columnIndex(cell.getAttribute('r')) ?? cells.length
      while (cells.length < column) cells.push('')
      cells[column] = cellText(cell, strings)
    }
    rows.push(cells)
  }
  return rows
}

function cellText(cell: Element, strings: string[]): string {
  const type = cell.getAttribute('t')
  if (type === 'inlineStr') {
    const inline = elements(cell, 'is')[0]
    return inline ? stringText(inline) : ''
  }
  const value = elements(cell, 'v')[0]?.textContent ?? ''
  if (type === 's') return strings[Number(value)] ?? ''
  if (type === 'b') return value === '1' ? 'true' : 'false'
  return value
}

/** `C7` → 2 (from column A); null without a reference. */
function columnIndex(reference: string | null): number | null {
  const letters = /^[A-Z]+/i.exec(reference ?? '')?.[0]
  if (!letters) return null
  let index = 0
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64)
  return index - 1
}
