import { createRequire } from 'node:module'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { describe, expect, it, vi } from 'vitest'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import { longWorkbook } from '../../testing/boq/price/long-workbook.ts'
import { RulesError } from './errors.ts'
import { readClassification, readRules, tableFormatOf } from './read.ts'
import { parseRate } from './rule-rows.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

/** The temporary files ExcelJS's streaming reader would copy a sheet to (the module it uses). */
const tmp = createRequire(import.meta.url)('tmp') as { file: (...args: unknown[]) => void }

/** The problems a file gives, as the person reads them. */
async function problems(read: Promise<unknown>): Promise<string[]> {
  try {
    await read
  } catch (error) {
    if (error instanceof RulesError)
      return error.problems.map((p) => (p.row ? `row ${p.row}: ${p.message}` : p.message))
    throw error
  }
  return []
}

async function workbook(rows: unknown[][], sheet = 'Rules'): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  book.addWorksheet('Notes').addRow(['not this one'])
  const ws = book.addWorksheet(sheet)
  for (const row of rows) ws.addRow(row)
  return new Uint8Array(await book.xlsx.writeBuffer())
}

const CSV = `match,layer,kind,code,description,unit,quantity,rate,ignore
length,Walls,"line, arc",20.10,"Plaster, both sides",m²,length * 2.4 * 2,12.50,
length,Walls,"line, arc",20.11,Skirting,m,,"1,234.50",no

length,Dims,,,,,,,yes
`

describe('reading rules files', () => {
  it('reads a CSV, its header naming the columns, blank rows skipped', async () => {
    expect(await readRules(utf8(CSV), 'csv')).toEqual([
      {
        match: 'length',
        layer: 'Walls',
        kind: 'line, arc',
        code: '20.10',
        description: 'Plaster, both sides',
        unit: 'm²',
        quantity: 'length * 2.4 * 2',
        rate: 12.5,
      },
      {
        match: 'length',
        layer: 'Walls',
        kind: 'line, arc',
        code: '20.11',
        description: 'Skirting',
        unit: 'm',
        rate: 1234.5,
      },
      { match: 'length', layer: 'Dims', ignore: true },
    ])
  })

  it('reads a CSV with semicolons, a byte order mark, in Excel’s Windows code page', async () => {
    const text = 'Match;Block;Description;Rate\r\ncount;Tür*;Türen;1.234,5\r\ncount;T;T;12,5\r\n'
    const expected = [
      { match: 'count', block: 'Tür*', description: 'Türen', rate: 1234.5 },
      { match: 'count', block: 'T', description: 'T', rate: 12.5 },
    ]
    expect(await readRules(new Uint8Array(Buffer.from(text, 'latin1')), 'csv')).toEqual(expected)
    expect(await readRules(utf8(`\uFEFF${text}`), 'csv')).toEqual(expected)
  })

  it('names the row and the cell that is wrong', async () => {
    const csv =
      'match,block,layer,code,rate,ignore,quantity\ncount,Door,,D,12,,\nvolume,,,X,,,\ncount,,,Y,abc,maybe,\nlength,,Walls\\,Z,,,\nlength,,W,Q,,,length ^ 2\n'
    expect(await problems(readRules(utf8(csv), 'csv'))).toEqual([
      "row 3: unknown match 'volume' (count, length, area or zone)",
      "row 4: rate 'abc' is not a number",
      "row 4: ignore 'maybe' is neither yes nor no",
      "row 5: layer 'Walls\\' ends with an escape (\\)",
      "row 6: formula 'length ^ 2': ^ is not a power here: write ** (length ** 2)",
    ])
  })

  it('refuses unknown, doubled and unnamed columns', async () => {
    expect(await problems(readRules(utf8('match,colour,Match\ncount,red,x\n'), 'csv'))).toEqual([
      "row 1: unknown column 'colour' (the columns are match, block, layer, kind, attribute, visibility, zone, code, description, unit, quantity, rate, ignore)",
      "row 1: the column 'match' is there twice",
    ])
    expect(await problems(readRules(utf8('match,,code\ncount,oops,X\n'), 'csv'))).toEqual([
      'row 2: column 2 has no name',
    ])
    expect(await problems(readRules(utf8(',,\n'), 'csv'))).toEqual([
      'row 1: the first row must name the columns',
    ])
  })

  it('refuses malformed CSV without a crash', async () => {
    const [message] = await problems(readRules(utf8('match,code\ncount,"unclosed\n'), 'csv'))
    expect(message).toMatch(/^the CSV cannot be read: /)
  })

  it('reads an XLSX workbook’s Rules sheet, numbers and booleans as cells', async () => {
    const bytes = await workbook([
      ['Match', 'Layer', 'Code', 'Rate', 'Ignore', 'Quantity'],
      ['area', 'Slab*', 'S', 45.5, false, { formula: '"area"', result: 'area * 0.2' }],
      [],
      ['length', 'Dims', null, null, true],
    ])
    expect(await readRules(bytes, 'xlsx')).toEqual([
      { match: 'area', layer: 'Slab*', code: 'S', rate: 45.5, quantity: 'area * 0.2' },
      { match: 'length', layer: 'Dims', ignore: true },
    ])
  })

  it('names the sheet row of a wrong cell in a workbook', async () => {
    const bytes = await workbook([['match', 'code'], ['count', 'A'], [], ['solid', 'B']])
    expect(await problems(readRules(bytes, 'xlsx'))).toEqual([
      "row 4: unknown match 'solid' (count, length, area or zone)",
    ])
  })

  it('refuses what is not a workbook, or unpacks to too much', async () => {
    expect(await problems(readRules(utf8('match\ncount'), 'xlsx'))).toEqual([
      'the file is not an XLSX workbook',
    ])
    const zip = new JSZip()
    zip.file('xl/workbook.xml', ' '.repeat(70 * 1024 * 1024))
    const bomb = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(await problems(readRules(bomb, 'xlsx'))).toEqual([
      'the workbook unpacks to more than a rules table can be',
    ])
    const empty = await new JSZip().file('x.txt', 'x').generateAsync({ type: 'uint8array' })
    expect((await problems(readRules(empty, 'xlsx')))[0]).toMatch(
      /^the XLSX workbook cannot be read|^the workbook has no sheet/,
    )
  })

  it('reads a sheet as it unpacks, and stops at the first row past a table’s last', async () => {
    // Never a copy of a sheet on disk first (the streaming reader's way when the shared strings
    // come after the sheets, as ExcelJS and Excel write them).
    const copies = vi.spyOn(tmp, 'file')
    try {
      expect(
        await readRules(
          await workbook([
            ['match', 'code'],
            ['count', 'A'],
          ]),
          'xlsx',
        ),
      ).toEqual([{ match: 'count', code: 'A' }])
      // Ten million empty rows: 60 MB unpacked, about 100 KB sent.
      const long = await longWorkbook(10_000_000)
      expect(long.length).toBeLessThan(MAX_RULES_FILE_BYTES)
      expect(await problems(readRules(long, 'xlsx'))).toEqual([
        'the sheet goes on past row 10,001; at most 10,000 rows are read',
      ])
      expect(await readRules(await longWorkbook(9_999), 'xlsx')).toEqual([
        { match: 'count', code: 'A' },
      ])
      expect(copies).not.toHaveBeenCalled()
    } finally {
      copies.mockRestore()
    }
  })

  it('stops at text past the last column a table has', async () => {
    const cell = (ref: string, text: string) =>
      `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
    const wide = await longWorkbook(
      0,
      `<row r="1">${cell('A1', 'match')}</row><row r="2">${cell('A2', 'count')}${cell('BM2', 'x')}</row>`,
    )
    expect(await problems(readRules(wide, 'xlsx'))).toEqual([
      'row 2: there is text past column 64; a table has at most 64 columns',
    ])
    const csv = utf8(`match\ncount${','.repeat(64)}x\n`)
    expect(await problems(readRules(csv, 'csv'))).toEqual([
      'row 2: there is text past column 64; a table has at most 64 columns',
    ])
  })

  it('never unpacks a part past the size it says it has', async () => {
    const bytes = await longWorkbook(1_000)
    // The sheet's size in the central directory, said smaller than it is.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const name = new TextEncoder().encode('xl/worksheets/sheet1.xml')
    for (let at = 0; at + 46 < bytes.length; at++) {
      const here = bytes.subarray(at + 46, at + 46 + name.length)
      if (view.getUint32(at, true) === 0x02014b50 && here.every((b, i) => b === name[i])) {
        view.setUint32(at + 24, 300, true)
      }
    }
    expect(await problems(readRules(bytes, 'xlsx'))).toEqual([
      'the XLSX workbook cannot be read: xl/worksheets/sheet1.xml unpacks to more than it says',
    ])
  })

  it('reads JSON as a list of rows or {rules: [...]}', async () => {
    const rows = [{ match: 'count', Block: 'Door', code: 7, rate: 10, ignore: false, unit: null }]
    const expected = [{ match: 'count', block: 'Door', code: '7', rate: 10 }]
    expect(await readRules(utf8(JSON.stringify(rows)), 'json')).toEqual(expected)
    expect(await readRules(utf8(JSON.stringify({ version: 3, rules: rows })), 'json')).toEqual(
      expected,
    )
  })

  it('refuses JSON that is not rows, naming the entry', async () => {
    expect((await problems(readRules(utf8('{"rules": [1,'), 'json')))[0]).toMatch(
      /^the JSON cannot be read/,
    )
    expect(await problems(readRules(utf8('{"rule": []}'), 'json'))).toEqual([
      'the JSON must be a list of rows, or {"rules": [...]}',
    ])
    expect(
      await problems(
        readRules(
          utf8('[{"match":"count","code":"A"}, [1], {"match":"count","code":{"a":1},"x":1}]'),
          'json',
        ),
      ),
    ).toEqual([
      'row 2: a row must be an object of columns',
      "row 3: 'code' must be text or a number",
      "row 3: unknown column 'x' (the columns are match, block, layer, kind, attribute, visibility, zone, code, description, unit, quantity, rate, ignore)",
    ])
    expect(await problems(readRules(utf8('[{"__proto__": {"match": "count"}}]'), 'json'))).toEqual([
      "row 1: unknown column '__proto__' (the columns are match, block, layer, kind, attribute, visibility, zone, code, description, unit, quantity, rate, ignore)",
    ])
  })

  it('refuses files over 1 MB and over 10,000 rows', async () => {
    const big = utf8(`match,code\n${'count,A\n'.repeat(140_000)}`)
    expect(await problems(readRules(big, 'csv'))).toEqual([
      'the file is 1.1 MB; at most 1 MB is read',
    ])
    const many = utf8(`match,code\n${'count,A\n'.repeat(10_001)}`)
    expect(await problems(readRules(many, 'csv'))).toEqual([
      'the file has more than 10,000 rows; at most 10,000 are read',
    ])
    expect(await readRules(utf8(`match,code\n${'count,A\n'.repeat(10_000)}`), 'csv')).toHaveLength(
      10_000,
    )
  })

  it('tells the format from the file name', () => {
    expect([
      tableFormatOf('Rules.CSV'),
      tableFormatOf('a.xlsx'),
      tableFormatOf('a.json'),
      tableFormatOf('a.xls'),
    ]).toEqual(['csv', 'xlsx', 'json', null])
  })

  it('reads rates as spreadsheets show them', () => {
    const texts = [
      '12',
      '12.50',
      '-3',
      '1,234.5',
      '£ 7',
      '1e3',
      '',
      ' ',
      '12,5',
      '1.2.3',
      'Infinity',
      '0x10',
    ]
    expect(texts.map((t) => parseRate(t))).toEqual([
      12,
      12.5,
      -3,
      1234.5,
      7,
      1000,
      null,
      null,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    const commas = ['12,5', '1.234,5', '1 234,50', '-0,5', '12.5', '1,2,3']
    expect(commas.map((t) => parseRate(t, true))).toEqual([
      12.5,
      1234.5,
      1234.5,
      -0.5,
      undefined,
      undefined,
    ])
  })
})

describe('reading classification files', () => {
  it('reads code, title (or description) and parent', async () => {
    const csv = 'Code,Description,Parent\n20,Shell,\n20.10,Walls,20\n'
    expect(await readClassification(utf8(csv), 'csv')).toEqual([
      { code: '20', title: 'Shell' },
      { code: '20.10', title: 'Walls', parent: '20' },
    ])
  })

  it('names the rows of a broken system', async () => {
    const csv = 'code,title,parent\n1,A,\n1,B,\n2,,9\n3,C,4\n4,D,3\n'
    expect(await problems(readClassification(utf8(csv), 'csv'))).toEqual([
      "row 3: code '1' is already on row 2",
      'row 4: title is empty',
      "row 4: parent '9' is not a code of the system",
      "row 5: code '3' is its own ancestor",
      "row 6: code '4' is its own ancestor",
    ])
  })
})
