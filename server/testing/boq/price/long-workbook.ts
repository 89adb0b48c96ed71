import JSZip from 'jszip'

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

const FIRST = { match: 'count', code: 'A' }

/** A sheet row of text cells from column A. */
export function rowXml(row: number, texts: string[]): string {
  const cells = texts.map(
    (text, i) =>
      `<c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><is><t>${text}</t></is></c>`,
  )
  return `<row r="${row}">${cells.join('')}</row>`
}

/**
 * A small XLSX whose one sheet, Rules, holds a header and one row (the cells of `first`: by
 * default the rule match count, code A), and then `rows` empty rows (`<row/>`, six bytes each):
 * ten million of them unpack to 60 MB and pack to about 100 KB, as a hostile upload would.
 * `sheetXml` writes the sheet's rows itself instead.
 */
export async function longWorkbook(
  rows: number,
  sheetXml = `${rowXml(1, Object.keys(FIRST))}${rowXml(2, Object.values(FIRST))}${'<row/>'.repeat(rows)}`,
): Promise<Uint8Array> {
  const zip = new JSZip()
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  )
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  )
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC}"><sheets><sheet name="Rules" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  )
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  )
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${sheetXml}</sheetData></worksheet>`,
  )
  return zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
  })
}
