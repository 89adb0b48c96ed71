import { crc32, deflateRawSync } from 'node:zlib'

/**
 * A workbook whose one sheet holds a row of column names, then `rows` empty rows (`<row/>` each):
 * ten million of them are 60 MB of XML that deflate packs into about 90 KB, a file any upload
 * limit lets through. Written as a zip by hand (the parts a reader needs, nothing else), since no
 * workbook writer makes rows with nothing in them.
 */
export function emptyRowsXlsx(rows: number, columns: string[]): Uint8Array<ArrayBuffer> {
  const names = columns
    .map(
      (name, i) =>
        `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${name}</t></is></c>`,
    )
    .join('')
  const sheet = Buffer.concat([
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${names}</row>`,
    ),
    Buffer.alloc(rows * 6, '<row/>'),
    Buffer.from('</sheetData></worksheet>'),
  ])
  return new Uint8Array(
    zip([
      [
        '[Content_Types].xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ],
      [
        '_rels/.rels',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ],
      [
        'xl/workbook.xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="rules" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ],
      [
        'xl/_rels/workbook.xml.rels',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ],
      ['xl/worksheets/sheet1.xml', sheet],
    ]),
  )
}

/** A zip of deflated entries: local headers, data, central directory, end record. */
function zip(entries: [name: string, content: string | Buffer][]): Buffer {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const [name, content] of entries) {
    const raw = typeof content === 'string' ? Buffer.from(content) : content
    const packed = deflateRawSync(raw, { level: 9 })
    const fileName = Buffer.from(name)
    const crc = crc32(raw)
    // Version 2.0, no flags, deflate, no time (1980-01-01).
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at)
      header.writeUInt16LE(0, at + 2)
      header.writeUInt16LE(8, at + 4)
      header.writeUInt16LE(0, at + 6)
      header.writeUInt16LE(0x21, at + 8)
      header.writeUInt32LE(crc, at + 10)
      header.writeUInt32LE(packed.length, at + 14)
      header.writeUInt32LE(raw.length, at + 18)
      header.writeUInt16LE(fileName.length, at + 22)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    common(local, 4)
    parts.push(local, fileName, packed)
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    entry.writeUInt16LE(20, 4)
    common(entry, 6)
    entry.writeUInt32LE(offset, 42)
    central.push(entry, fileName)
    offset += local.length + fileName.length + packed.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, directory, end])
}
