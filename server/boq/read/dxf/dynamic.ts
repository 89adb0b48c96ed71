import type { DxfScan } from './scan.ts'

/**
 * A dynamic block's reference places an anonymous copy (`*U…`) of the block; the real name is
 * recorded twice: on the copy's block record (extended data AcDbBlockRepBTag, group 1005 = the
 * defining record's handle), and in the reference's extension dictionary
 * (AcDbBlockRepresentation → AcDbRepData, an ACDB_BLOCKREPRESENTATION_DATA whose 340 is that
 * handle). The same dictionary caches the visibility state under AppDataCache.
 */
export class DynamicBlocks {
  private readonly scan: DxfScan
  /** Anonymous block name (upper case) → real name, from the block records' extended data. */
  private readonly byRecord = new Map<string, string>()

  constructor(scan: DxfScan) {
    this.scan = scan
    for (const { name, repBTag } of scan.records.values()) {
      if (!repBTag || !name.startsWith('*')) continue
      const real = this.namedRecord(repBTag)
      if (real) this.byRecord.set(name.toUpperCase(), real)
    }
  }

  /** The effective name of a reference to `definition`, whose extension dictionary is `xdict`. */
  name(definition: string, xdict: string): string {
    if (!definition.startsWith('*')) return definition
    const byRecord = this.byRecord.get(definition.toUpperCase())
    if (byRecord) return byRecord
    const data = this.entry(this.representation(xdict), 'AcDbRepData')
    const record = data ? this.scan.representations.get(data) : undefined
    return (record && this.namedRecord(record)) || definition
  }

  /** The visibility state the reference shows, or null when it records none. */
  visibility(xdict: string): string | null {
    const cache = this.entry(this.representation(xdict), 'AppDataCache')
    const data = this.entry(cache, 'ACAD_ENHANCEDBLOCKDATA')
    const states = data ? this.scan.dictionaries.get(data) : undefined
    // One XRECORD per parameter; the visibility parameter's is the one that holds a name (group 1).
    for (const xrecord of states?.values() ?? []) {
      const text = this.scan.xrecordText.get(xrecord)
      if (text) return text
    }
    return null
  }

  private representation(xdict: string): string | undefined {
    return xdict ? this.entry(xdict.toUpperCase(), 'AcDbBlockRepresentation') : undefined
  }

  private entry(dictionary: string | undefined, name: string): string | undefined {
    return dictionary ? this.scan.dictionaries.get(dictionary)?.get(name) : undefined
  }

  /** The name of the block record with this handle, when it is a named (not anonymous) one. */
  private namedRecord(handle: string): string | null {
    const name = this.scan.records.get(handle)?.name
    return name && !name.startsWith('*') ? name : null
  }
}
