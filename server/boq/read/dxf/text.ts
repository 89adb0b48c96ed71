/** DXF text: decoding, and the repairs dxf-json needs (R12 files, data groups coded 102). */

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Code pages of $DWGCODEPAGE that TextDecoder knows by another name. */
const CODE_PAGES: Record<string, string> = {
  ANSI_932: 'shift_jis',
  ANSI_936: 'gbk',
  ANSI_949: 'euc-kr',
  ANSI_950: 'big5',
}

/** Binary DXF starts with this sentinel (then CR LF, SUB, NUL). */
const BINARY_SENTINEL = 'AutoCAD Binary DXF'

export function isBinaryDxf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, BINARY_SENTINEL.length))
  return head === BINARY_SENTINEL
}

/**
 * The DXF's text: UTF-8 (R2007 on), else the drawing's code page ($DWGCODEPAGE), so that names
 * like `Open 30º` written by older releases read as they were written.
 */
export function decodeDxf(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    return new TextDecoder(codePageOf(bytes)).decode(bytes)
  }
}

function codePageOf(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64 * 1024))
  const match = /\$DWGCODEPAGE\s*\r?\n\s*3\s*\r?\n\s*(\S+)/i.exec(head)
  const page = match?.[1].toUpperCase() ?? ''
  const label = CODE_PAGES[page] ?? page.replace(/^ANSI_/, 'windows-')
  try {
    new TextDecoder(label)
    return label
  } catch {
    return 'windows-1252'
  }
}

/**
 * dxf-json reads a block definition up to the `100 AcDbBlockEnd` after its ENDBLK; R12 writes
 * none, and without it the first block swallows the rest of the file (an empty drawing). The
 * marker is added after every ENDBLK (a second one where it is present is read past).
 */
export function withEndBlockMarkers(text: string): string {
  return text.replace(/^([ \t]*0[ \t]*\r?\nENDBLK[ \t]*)(\r?\n)/gm, '$1$2100$2AcDbBlockEnd$2')
}

/**
 * dxf-json takes every `102` for the start or end of an application group, wherever it stands;
 * after an object's first subclass marker DXF makes it data, and a bare one (AutoCAD's XRECORDs
 * hold `102 MATERIAL`) sends the parser past the end of the file. Each one at `codeLines` (where
 * its group code line starts, in file order) is given to the parser as a comment (999), which
 * its object parsers read past; the value line stays as it is. The scan reads the data itself.
 */
export function withDataGroupsAsComments(text: string, codeLines: number[]): string {
  if (codeLines.length === 0) return text
  const parts: string[] = []
  let from = 0
  for (const at of codeLines) {
    let end = text.indexOf('\n', at)
    if (end < 0) end = text.length
    if (end > at && text.charCodeAt(end - 1) === 13) end-- // keep a CR LF line end whole
    parts.push(text.slice(from, at), '999')
    from = end
  }
  parts.push(text.slice(from))
  return parts.join('')
}
