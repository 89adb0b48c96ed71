/**
 * One pass over a DXF's text for what the DXF parser (dxf-json) drops: block records' extended
 * data, layers' true colours, the objects a dynamic block reference's extension dictionary leads
 * to, XRECORD strings, and every entity of the ENTITIES section by type with its layer and
 * colour (it leaves out types it does not know). Group codes are read as DXF defines them where
 * they stand: a `102` opens or closes an application group only before a record's first subclass
 * marker (`100`); after it, `102` is data (AutoCAD writes `102 VTR_…` and `102 MATERIAL` in
 * XRECORDs), and the scan lists those for the parser's copy of the text.
 */

/** A group code and its value (trimmed). */
export type Pair = [code: number, value: string]

export type ScannedEntity = {
  type: string
  /** Hex, upper case; '' when the DXF gives none (R12). */
  handle: string
  /** The owner block record's handle; '' when none is written. */
  owner: string
  /** Group 67 = 1: in paper space. */
  paper: boolean
  /** Group 8 as dxf-json reads it (not trimmed); '' when none is written. */
  layer: string
  /** Group 62 of its common part (AcDbEntity), when written. */
  colorIndex: number | undefined
  /** Group 420 (0xRRGGBB) of its common part, when written. */
  trueColour: number | undefined
  /** The entity's group pairs, kept only for the types this reader measures from the text. */
  pairs: Pair[] | null
}

export type DxfScan = {
  /** Block records by handle: name, and the AcDbBlockRepBTag handle of a dynamic block's copy. */
  records: Map<string, { name: string; repBTag: string }>
  /** Layers' true colours (group 420, 0xRRGGBB) by name as dxf-json reads it (not trimmed). */
  layerTrueColours: Map<string, number>
  /** DICTIONARY objects by handle: entry name → object handle. */
  dictionaries: Map<string, Map<string, string>>
  /** ACDB_BLOCKREPRESENTATION_DATA objects by handle → the defining block record's handle. */
  representations: Map<string, string>
  /** XRECORD objects by handle → the first group-1 string of their data (only those with one). */
  xrecordText: Map<string, string>
  /** The ENTITIES section in file order, sub-entities (ATTRIB, VERTEX, SEQEND) left out. */
  entities: ScannedEntity[]
  /** Entities in each block definition of the BLOCKS section, by block name. */
  blockEntities: Map<string, number>
  /** Some ENDBLK has no `100 AcDbBlockEnd` (R12 and some writers): dxf-json needs one. */
  endBlockMarkerMissing: boolean
  /**
   * Where the OBJECTS section has a `102` that is data (after its object's first subclass
   * marker): the offset in the text of each one's group code line, in file order. dxf-json takes
   * every 102 for an application group, and a bare one sends it past the end of the file.
   */
  dataGroups102: number[]
}

/** Sub-entities: part of the INSERT or POLYLINE before them, not entities of their own. */
export const SUBENTITIES = new Set(['ATTRIB', 'VERTEX', 'SEQEND'])

/** Types whose pairs are kept: the parser drops them, this reader measures or draws them. */
const KEEP_PAIRS = new Set(['HELIX', 'TRACE'])

export function scanDxf(text: string): DxfScan {
  const scan: DxfScan = {
    records: new Map(),
    layerTrueColours: new Map(),
    dictionaries: new Map(),
    representations: new Map(),
    xrecordText: new Map(),
    entities: [],
    blockEntities: new Map(),
    endBlockMarkerMissing: false,
    dataGroups102: [],
  }
  const state = new ScanState(scan)
  const end = text.length
  let pos = 0
  while (pos < end) {
    let eol = text.indexOf('\n', pos)
    if (eol < 0) eol = end
    const code = groupCode(text, pos, eol)
    const codeAt = pos
    pos = eol + 1
    eol = text.indexOf('\n', pos)
    if (eol < 0) eol = end
    // Most lines are coordinates nobody here reads: their value is not even cut out.
    if (code >= 0 && (READ[code] || state.keepsAll())) {
      const raw = text.slice(pos, eol)
      state.pair(code, raw.trim(), raw, codeAt)
    }
    pos = eol + 1
  }
  state.pair(0, 'EOF')
  return scan
}

/** The group codes whose values the scan looks at. */
const READ: boolean[] = []
for (const code of [0, 1, 2, 3, 5, 8, 62, 67, 100, 102, 330, 340, 350, 360, 420, 1001, 1005])
  READ[code] = true

/** The group code on the line from `start` to `end`; -1 when it is not a number. */
function groupCode(text: string, start: number, end: number): number {
  let code = 0
  let digits = 0
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      code = code * 10 + (c - 48)
      digits++
    } else if (c !== 32 && c !== 13 && c !== 9) return -1
  }
  return digits > 0 ? code : -1
}

/** A name as dxf-json reads it: as written, but for the CR of a CR LF line end. */
const asRead = (raw: string): string => (raw.endsWith('\r') ? raw.slice(0, -1) : raw)

/** The record being read (the group-0 object or entity) and what is kept of it. */
class ScanState {
  private readonly scan: DxfScan
  private section = ''
  private type = ''
  /** Inside a `102 {…` … `102 }` application group, whose 330/360 are not the record's own. */
  private inGroup = false
  /** Past the record's first subclass marker (`100`), where no application group starts. */
  private subclassed = false
  private handle = ''
  private name = ''
  private owner = ''
  private paper = false
  private layer: string | null = null
  /** In the entity's common part: before any subclass marker, or after AcDbEntity's. */
  private common = true
  private colorIndex: number | undefined = undefined
  private trueColour: number | undefined = undefined
  private app = ''
  private repBTag = ''
  private pairs: Pair[] | null = null
  private entryName: string | null = null
  private entries: Map<string, string> | null = null
  private target = ''
  private text: string | null = null
  private hasEndMarker = false
  private block = ''

  constructor(scan: DxfScan) {
    this.scan = scan
  }

  /** Whether every pair of the current record is wanted (an entity read from its pairs). */
  keepsAll(): boolean {
    return this.pairs !== null
  }

  /**
   * A pair: its value trimmed, and as written (`raw`, for names read as dxf-json reads them);
   * `at` is where its group code line starts in the text.
   */
  pair(code: number, value: string, raw = value, at = -1): void {
    if (code === 0) {
      this.finish()
      this.start(value)
      return
    }
    if (this.type === 'SECTION') {
      if (code === 2) this.section = value.toUpperCase()
      return
    }
    if (code === 102 && !this.subclassed) {
      this.inGroup = value.startsWith('{')
      return
    }
    if (code === 102 && this.section === 'OBJECTS' && at >= 0) this.scan.dataGroups102.push(at)
    if (code === 100) this.subclassed = true
    if (code === 5 && !this.handle) this.handle = value.toUpperCase()
    if (this.pairs) this.pairs.push([code, value])
    switch (this.section) {
      case 'TABLES':
        if (this.type === 'BLOCK_RECORD') this.recordPair(code, value)
        else if (this.type === 'LAYER') this.layerPair(code, value, raw)
        break
      case 'BLOCKS':
        if (this.type === 'BLOCK' && code === 2 && !this.name) this.name = value
        else if (this.type === 'ENDBLK' && code === 100 && value === 'AcDbBlockEnd')
          this.hasEndMarker = true
        break
      case 'ENTITIES':
        if (code === 330 && !this.inGroup && !this.owner) this.owner = value.toUpperCase()
        else if (code === 67) this.paper = Number(value) === 1
        else if (code === 100) this.common = value === 'AcDbEntity'
        else if (this.common) this.stylePair(code, value, raw)
        break
      case 'OBJECTS':
        this.objectPair(code, value)
        break
    }
  }

  private recordPair(code: number, value: string): void {
    if (code === 2 && !this.name) this.name = value
    else if (code === 1001) this.app = value
    else if (code === 1005 && this.app === 'AcDbBlockRepBTag' && !this.repBTag)
      this.repBTag = value.toUpperCase()
  }

  private layerPair(code: number, value: string, raw: string): void {
    if (code === 2 && !this.name) this.name = asRead(raw)
    else if (code === 420 && this.trueColour === undefined) this.trueColour = Number(value)
  }

  /** An entity's own layer and colour, from its common part (others' 62 are its parts'). */
  private stylePair(code: number, value: string, raw: string): void {
    if (code === 8 && this.layer === null) this.layer = asRead(raw)
    else if (code === 62 && this.colorIndex === undefined) this.colorIndex = Number(value)
    else if (code === 420 && this.trueColour === undefined) this.trueColour = Number(value)
  }

  private objectPair(code: number, value: string): void {
    if (this.inGroup) return
    if (this.type === 'DICTIONARY') {
      if (code === 3) this.entryName = value
      else if ((code === 350 || code === 360) && this.entryName !== null) {
        this.entries?.set(this.entryName, value.toUpperCase())
        this.entryName = null
      }
    } else if (this.type === 'ACDB_BLOCKREPRESENTATION_DATA') {
      if (code === 340 && !this.target) this.target = value.toUpperCase()
    } else if (this.type === 'XRECORD') {
      if (code === 1 && this.text === null) this.text = value
    }
  }

  private start(type: string): void {
    this.type = type
    this.inGroup = false
    this.subclassed = false
    this.handle = ''
    this.name = ''
    this.owner = ''
    this.paper = false
    this.layer = null
    this.common = true
    this.colorIndex = undefined
    this.trueColour = undefined
    this.app = ''
    this.repBTag = ''
    this.entryName = null
    this.entries = type === 'DICTIONARY' && this.section === 'OBJECTS' ? new Map() : null
    this.target = ''
    this.text = null
    this.hasEndMarker = false
    this.pairs = this.section === 'ENTITIES' && KEEP_PAIRS.has(type) ? [] : null
    if (type === 'ENDSEC') this.section = ''
    if (this.section === 'BLOCKS' && type === 'BLOCK') this.block = ''
  }

  private finish(): void {
    const { scan, type } = this
    switch (this.section) {
      case 'TABLES':
        if (type === 'BLOCK_RECORD' && this.handle)
          scan.records.set(this.handle, { name: this.name, repBTag: this.repBTag })
        else if (type === 'LAYER' && this.name && Number.isInteger(this.trueColour))
          scan.layerTrueColours.set(this.name, this.trueColour as number)
        break
      case 'BLOCKS':
        if (type === 'BLOCK') {
          this.block = this.name
          scan.blockEntities.set(this.name, 0)
        } else if (type === 'ENDBLK') {
          if (!this.hasEndMarker) scan.endBlockMarkerMissing = true
          this.block = ''
        } else if (this.block && !SUBENTITIES.has(type)) {
          scan.blockEntities.set(this.block, (scan.blockEntities.get(this.block) ?? 0) + 1)
        }
        break
      case 'ENTITIES':
        if (type && !SUBENTITIES.has(type) && type !== 'SECTION') {
          scan.entities.push({
            type,
            handle: this.handle,
            owner: this.owner,
            paper: this.paper,
            layer: this.layer ?? '',
            colorIndex: this.colorIndex,
            trueColour: this.trueColour,
            pairs: this.pairs,
          })
        }
        break
      case 'OBJECTS':
        if (!this.handle) break
        if (this.entries) scan.dictionaries.set(this.handle, this.entries)
        else if (type === 'ACDB_BLOCKREPRESENTATION_DATA' && this.target)
          scan.representations.set(this.handle, this.target)
        else if (type === 'XRECORD' && this.text !== null)
          scan.xrecordText.set(this.handle, this.text)
        break
    }
  }
}
