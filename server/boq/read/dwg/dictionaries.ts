import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DwgContext, Ptr } from './context.ts'

/** The reference an entry of a dictionary (given by reference) holds, or 0. */
export function dictionaryEntry(ctx: DwgContext, dictionary: Ptr, name: string): Ptr {
  if (!dictionary) return 0
  try {
    return ctx.wasm.dwg_find_dicthandle(ctx.data, dictionary, name) || 0
  } catch {
    return 0
  }
}

/** The object a reference points to when it is of the type expected, else 0. */
export function objectOfType(ctx: DwgContext, ref: Ptr, type: number): Ptr {
  const obj = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
  return obj && ctx.wasm.dwg_object_get_fixedtype(obj) === type ? obj : 0
}

/** A dictionary's entries (names and references), in its order. */
export function dictionaryEntries(ctx: DwgContext, dictionary: Ptr): { name: string; ref: Ptr }[] {
  const obj = objectOfType(ctx, dictionary, T.DWG_TYPE_DICTIONARY)
  if (!obj) return []
  let names: string[]
  try {
    names = ctx.lib.dwg_object_dictionary_get_texts(obj) ?? []
  } catch {
    return []
  }
  const tio = ctx.wasm.dwg_object_to_object_tio(obj)
  const count = Math.min(names.length, ctx.fields.uint(tio, 'DICTIONARY.numitems', 4))
  const items = ctx.fields.uint(tio, 'DICTIONARY.itemhandles', 4)
  if (!ctx.heap.has(items, count * 4)) return []
  return names.slice(0, count).map((name, i) => ({ name, ref: ctx.heap.u32(items + i * 4) }))
}

/** The first string of a group code in an XRECORD (given by reference), or null. */
export function xrecordString(ctx: DwgContext, ref: Ptr, code: number): string | null {
  const group = xrecordGroups(ctx, ref).find((g) => g.code === code && typeof g.value === 'string')
  return group ? (group.value as string) : null
}

type Point = { x: number; y: number; z: number }

/** The points of a group code in an XRECORD (given by reference), in its order. */
export function xrecordPoints(ctx: DwgContext, ref: Ptr, code: number): Point[] {
  const points: Point[] = []
  for (const { code: c, value } of xrecordGroups(ctx, ref)) {
    if (c !== code || typeof value !== 'object' || value === null) continue
    const { x, y, z } = value as Partial<Point>
    if (typeof x === 'number' && typeof y === 'number')
      points.push({ x, y, z: typeof z === 'number' ? z : 0 })
  }
  return points
}

/** An XRECORD's groups (given by reference); none when it is not one or cannot be read. */
function xrecordGroups(ctx: DwgContext, ref: Ptr): { code: number; value: unknown }[] {
  const obj = objectOfType(ctx, ref, T.DWG_TYPE_XRECORD)
  if (!obj) return []
  try {
    return ctx.lib.dwg_object_xrecord_get_xdata(ctx.wasm.dwg_object_to_object_tio(obj)) ?? []
  } catch {
    return []
  }
}
