import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { isUnresolvedAnonymous } from '../../model/drawing.ts'
import type { BlockRecords } from './block-records.ts'
import type { DwgContext, Ptr } from './context.ts'
import {
  dictionaryEntries,
  dictionaryEntry,
  objectOfType,
  xrecordPoints,
  xrecordString,
} from './dictionaries.ts'
import { DynamicParameters, parameterValue } from './dynamic-parameters.ts'
import { AppNames, type EedApp, eedApps, eedHandle, isEedCode, readEed, resolve } from './eed.ts'

/**
 * The two places a dynamic block reference's real name is kept: the anonymous block record's
 * EED (`AcDbBlockRepBTag`, a handle of the dynamic block's record), and the reference's extension
 * dictionary (`AcDbBlockRepresentation` → `AcDbRepData`, whose `block` is that record).
 */
export type NameRoute = 'eed' | 'xdict'
export const NAME_ROUTES: readonly NameRoute[] = ['eed', 'xdict']

/** The EED application on a dynamic block's anonymous copies that names the dynamic block. */
const REP_TAG = 'AcDbBlockRepBTag'
/** An EED application only dynamic block definitions carry. */
const DYNAMIC_GUID = 'AcDbDynamicBlockGUID'
/** In an XRECORD of a reference's enhanced block data, group 1 is the visibility state. */
const VISIBILITY_CODE = 1
/** In the same XRECORDs, group 10 holds a parameter's points (a linear one's base and end). */
const POINT_CODE = 10

/** Dynamic block references: their real names and properties, each record looked at once. */
export class DynamicBlocks {
  private readonly ctx: DwgContext
  private readonly records: BlockRecords
  private readonly routes: readonly NameRoute[]
  private readonly appNames: AppNames
  /** The EED route's answer per anonymous record (null: it has none). */
  private readonly byEed = new Map<Ptr, string | null>()
  /** What the extension dictionary route found per anonymous record. */
  private readonly byXdict = new Map<Ptr, string>()
  /** Whether a block record is a dynamic block definition. */
  private readonly definitions = new Map<Ptr, boolean>()
  /** Per dynamic block, the entry of its references' enhanced data that holds the visibility. */
  private readonly visibilityEntries = new Map<string, string>()
  /** Each dynamic block's record by its name, as the name routes found it. */
  private readonly definitionRecords = new Map<string, Ptr>()
  private readonly parameters: DynamicParameters
  private lastInsert: Ptr = 0
  private lastRepresentation: Ptr = 0

  constructor(ctx: DwgContext, records: BlockRecords, routes: readonly NameRoute[] = NAME_ROUTES) {
    this.ctx = ctx
    this.records = records
    this.routes = routes
    this.appNames = new AppNames(ctx)
    this.parameters = new DynamicParameters(ctx)
  }

  /** A reference's effective name: the dynamic block's for a `*U…` record, when it is found. */
  effectiveName(header: Ptr, insert: Ptr, definition: string): string {
    if (!header || !isUnresolvedAnonymous(definition)) return definition
    const byEed = this.cachedNameByEed(header)
    if (byEed && !this.ctx.verify) return byEed
    let byXdict = this.byXdict.get(header) ?? null
    if (this.routes.includes('xdict') && (byXdict === null || this.ctx.verify)) {
      byXdict = this.nameByXdict(insert)
      if (byXdict) this.byXdict.set(header, byXdict)
    }
    if (byEed && byXdict && byEed !== byXdict)
      throw new Error(`dynamic block ${definition}: EED names ${byEed}, the dictionary ${byXdict}`)
    return byEed ?? byXdict ?? definition
  }

  /** Whether references to the record may have dynamic properties (only those are looked at). */
  isDynamic(header: Ptr, definition: string, block: string): boolean {
    if (block !== definition) return true
    return header !== 0 && !isUnresolvedAnonymous(definition) && this.isDefinition(header)
  }

  /**
   * A dynamic reference's properties: its visibility state, when it has one, and its numeric
   * parameters' values (distances, angles) under their property names. `header` is the record
   * the reference places (the dynamic block's own for a reference that is not anonymous).
   */
  properties(insert: Ptr, block: string, header: Ptr): Record<string, string> {
    const cache = dictionaryEntry(this.ctx, this.representation(insert), 'AppDataCache')
    const data = dictionaryEntry(this.ctx, cache, 'ACAD_ENHANCEDBLOCKDATA')
    if (!data) return {}
    const entries: [string, string][] = []
    const visibility = this.visibility(data, block)
    if (visibility !== null) entries.push(['visibility', visibility])
    const record = this.definitionRecords.get(block) ?? header
    for (const parameter of this.parameters.of(record)) {
      if (parameter.name.toLowerCase() === 'visibility') continue
      const xrecord = dictionaryEntry(this.ctx, data, parameter.node)
      const value = parameterValue(parameter, xrecordPoints(this.ctx, xrecord, POINT_CODE))
      if (value !== null) entries.push([parameter.name, value])
    }
    // fromEntries makes own properties of any name, `__proto__` included.
    return Object.fromEntries(entries)
  }

  /** The EED route: the record's `AcDbBlockRepBTag` 1005 handle, resolved to a named record. */
  nameByEed(header: Ptr): string | null {
    for (const app of this.apps(header)) {
      if (this.appNames.get(app.app) !== REP_TAG) continue
      for (const item of app.items) {
        const handle = eedHandle(this.ctx, item)
        const target = handle === null ? 0 : resolve(this.ctx, handle)
        const name = this.definitionName(target, header)
        if (name) return name
      }
    }
    return null
  }

  /** The dictionary route: the reference's `AcDbBlockRepresentation` → `AcDbRepData` → block. */
  nameByXdict(insert: Ptr): string | null {
    const { ctx } = this
    const ref = dictionaryEntry(ctx, this.representation(insert), 'AcDbRepData')
    const data = objectOfType(ctx, ref, T.DWG_TYPE_BLOCKREPRESENTATION)
    if (!data) return null
    const blockRef = ctx.fields.uint(
      ctx.wasm.dwg_object_to_object_tio(data),
      'BLOCKREPRESENTATION.block',
      4,
    )
    const target = blockRef ? ctx.wasm.dwg_ref_get_object(blockRef) : 0
    return this.definitionName(target, 0)
  }

  private cachedNameByEed(header: Ptr): string | null {
    if (!this.routes.includes('eed')) return null
    let name = this.byEed.get(header)
    if (name === undefined) {
      name = this.nameByEed(header)
      this.byEed.set(header, name)
    }
    return name
  }

  /** A dynamic block's record name: a named block record other than the anonymous one. */
  private definitionName(target: Ptr, anonymous: Ptr): string | null {
    if (!target || target === anonymous || !this.records.isBlockRecord(target)) return null
    const name = this.records.get(target).name
    if (!name || name.startsWith('*')) return null
    if (this.ctx.verify && !this.isDefinition(target))
      throw new Error(`dynamic block ${name}: its record is not marked as a dynamic block`)
    this.definitionRecords.set(name, target)
    return name
  }

  /** Whether a block record is a dynamic block's definition (it carries its GUID in EED). */
  private isDefinition(header: Ptr): boolean {
    let dynamic = this.definitions.get(header)
    if (dynamic === undefined) {
      dynamic = this.apps(header).some((app) => this.appNames.get(app.app) === DYNAMIC_GUID)
      this.definitions.set(header, dynamic)
    }
    return dynamic
  }

  /**
   * The record's EED by application. In verify mode every entry must name an APPID and hold an
   * item of a known EED code: the binding's own getter is no reference (it garbles values, and
   * pre-2007 names).
   */
  private apps(header: Ptr): EedApp[] {
    const entries = readEed(this.ctx, this.ctx.wasm.dwg_object_to_object_tio(header))
    if (this.ctx.verify) {
      for (const entry of entries) {
        const code = entry.item ? this.ctx.heap.u8(entry.item) : 0
        if (!this.appNames.get(entry.app) || !isEedCode(code))
          throw new Error(`EED of block record ${this.records.get(header).name}: not as expected`)
      }
    }
    return eedApps(entries)
  }

  /** The reference's `AcDbBlockRepresentation` dictionary (by reference), or 0. */
  private representation(insert: Ptr): Ptr {
    if (insert === this.lastInsert) return this.lastRepresentation
    let xdict: Ptr = 0
    try {
      const tio = this.ctx.wasm.dwg_object_to_entity_tio(insert)
      xdict = Number(this.ctx.lib.dwg_dynapi_common_value(tio, 'xdicobjhandle').data) || 0
    } catch {
      xdict = 0
    }
    this.lastInsert = insert
    this.lastRepresentation = dictionaryEntry(this.ctx, xdict, 'AcDbBlockRepresentation')
    return this.lastRepresentation
  }

  /**
   * The visibility state in a reference's enhanced block data: the XRECORD with a group 1 string.
   * Where it sits is learnt from the block's first reference, so the others read one record.
   */
  private visibility(data: Ptr, block: string): string | null {
    const known = this.visibilityEntries.get(block)
    if (known !== undefined) {
      const value = xrecordString(this.ctx, dictionaryEntry(this.ctx, data, known), VISIBILITY_CODE)
      if (value !== null) return value
    }
    for (const entry of dictionaryEntries(this.ctx, data)) {
      const value = xrecordString(this.ctx, entry.ref, VISIBILITY_CODE)
      if (value === null) continue
      this.visibilityEntries.set(block, entry.name)
      return value
    }
    return null
  }
}
