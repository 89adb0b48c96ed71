import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { type DwgContext, nameOf, type Ptr } from './context.ts'

/**
 * Extended entity data (EED) straight from LibreDWG's Dwg_Eed array, which the binding's own
 * xdata getter decodes wrongly (handles come out as garbage). wasm32 layout of one Dwg_Eed:
 * `size` (u16) at 0, the APPID handle's value (u64) at 16, the first item (Dwg_Eed_Data*) at 32.
 * An entry with a size starts an application's data; entries of size 0 continue it.
 */
const EED_STRIDE = 40
const EED_APP_HANDLE = 16
const EED_ITEM = 32
/** More entries than this is not EED but a misread. */
const MAX_EED = 65_536

/** A Dwg_Eed_Data item is its code byte (the DXF group code - 1000), then its value, packed. */
const CODE_HANDLE = 5
const HANDLE_BYTES = 8

/** One Dwg_Eed entry: its APPID's handle, its size (0: it continues an application), its item. */
export type EedEntry = { app: bigint; size: number; item: Ptr }

/** One application's EED: its APPID's handle and its items (pointers to Dwg_Eed_Data). */
export type EedApp = { app: bigint; items: Ptr[] }

/** The Dwg_Eed entries of an object (`tio` is its object or entity struct). */
export function readEed(ctx: DwgContext, tio: Ptr): EedEntry[] {
  const { lib, heap } = ctx
  let count = 0
  let array: Ptr = 0
  try {
    count = Number(lib.dwg_dynapi_common_value(tio, 'num_eed').data) || 0
    array = count ? Number(lib.dwg_dynapi_common_value(tio, 'eed').data) || 0 : 0
  } catch {
    return []
  }
  if (!count || count > MAX_EED || !heap.has(array, count * EED_STRIDE)) return []
  const entries: EedEntry[] = new Array(count)
  for (let i = 0; i < count; i++) {
    const at = array + i * EED_STRIDE
    const item = heap.u32(at + EED_ITEM)
    entries[i] = {
      app: heap.u64(at + EED_APP_HANDLE),
      size: heap.u16(at),
      item: heap.has(item, 1) ? item : 0,
    }
  }
  return entries
}

/** Entries grouped by application, in order. */
export function eedApps(entries: EedEntry[]): EedApp[] {
  const apps: EedApp[] = []
  let current: EedApp | null = null
  for (const entry of entries) {
    if (!current || entry.size > 0 || entry.app !== current.app) {
      current = { app: entry.app, items: [] }
      apps.push(current)
    }
    if (entry.item) current.items.push(entry.item)
  }
  return apps
}

/** The handle of a 1005 (database handle) item, or null for any other item. */
export function eedHandle(ctx: DwgContext, item: Ptr): bigint | null {
  const { heap } = ctx
  if (heap.u8(item) !== CODE_HANDLE || !heap.has(item + 1, HANDLE_BYTES)) return null
  return heap.u64(item + 1)
}

/** EED item codes (DXF group code - 1000): strings, control, layer, binary, handle, numbers. */
const EED_CODES = new Set([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 40, 41, 42, 70, 71])

export function isEedCode(code: number): boolean {
  return EED_CODES.has(code)
}

/** APPID names by handle, resolved once each. */
export class AppNames {
  private readonly ctx: DwgContext
  private readonly names = new Map<bigint, string>()

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  get(handle: bigint): string {
    let name = this.names.get(handle)
    if (name === undefined) {
      const obj = resolve(this.ctx, handle)
      name =
        obj && this.ctx.wasm.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_APPID
          ? nameOf(this.ctx, obj)
          : ''
      this.names.set(handle, name)
    }
    return name
  }
}

/** The object with a handle, or 0 (a handle that does not resolve is no error here). */
export function resolve(ctx: DwgContext, handle: bigint): Ptr {
  if (handle <= 0n) return 0
  try {
    return ctx.wasm.dwg_resolve_handle_silent(ctx.data, handle) || 0
  } catch {
    return 0
  }
}
