import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import { DamageLog } from './damage.ts'
import { Heap } from './heap.ts'
import type { Ptr } from './ptr.ts'
import { StructFields } from './struct-fields.ts'

export type { Ptr }

/** The module's own functions, called without the LibreDwg wrapper (a Proxy: two traps a call). */
export type Wasm = Pick<
  LibreDwgEx,
  | 'get_first_owned_entity'
  | 'get_next_owned_entity'
  | 'get_first_owned_subentity'
  | 'get_next_owned_subentity'
  | 'dwg_object_get_fixedtype'
  | 'dwg_object_get_type'
  | 'dwg_object_to_entity_tio'
  | 'dwg_object_to_object_tio'
  | 'dwg_ref_get_object'
  | 'dwg_object_get_dxfname'
  | 'dwg_get_object'
  | 'dwg_object_get_supertype'
  | 'dwg_entity_owner'
  | 'dwg_object_to_entity'
  | 'dwg_find_dicthandle'
  | 'dwg_resolve_handle_silent'
>

/** What every part of the DWG walk shares for one drawing (nothing of it outlives the drawing). */
export type DwgContext = {
  lib: LibreDwgEx
  wasm: Wasm
  /** The Dwg_Data of the drawing. */
  data: Ptr
  fields: StructFields
  heap: Heap
  /** Compare direct memory reads with the binding's getters, and throw when they differ. */
  verify: boolean
  /** References the walk finds leading to no object. */
  damage: DamageLog
}

/**
 * The context of one drawing LibreDWG has read (`data` is its Dwg_Data); `lists` false for
 * R11/R12, whose block records list no entities by handle.
 */
export function dwgContext(lib: LibreDwgEx, data: Ptr, verify: boolean, lists = true): DwgContext {
  return {
    lib,
    data,
    verify,
    damage: new DamageLog(lists),
    fields: new StructFields(lib, verify),
    heap: new Heap(lib),
    wasm: (lib as unknown as { wasmInstance: Wasm }).wasmInstance,
  }
}

/** A header variable's value through the dynapi, or undefined when it cannot be read. */
export function headerValue(ctx: DwgContext, field: string): unknown {
  try {
    return ctx.lib.dwg_dynapi_header_value(ctx.data, field).data
  } catch {
    return undefined
  }
}

/** An object or entity struct field through LibreDWG's dynapi (an embind call; strings decoded). */
export function dynapiValue<V>(ctx: DwgContext, tio: Ptr, field: string): V | undefined {
  try {
    return ctx.lib.dwg_dynapi_entity_data<V>(tio, field)
  } catch {
    return undefined
  }
}

/** A `name` field (table records, dictionaries' targets), '' when there is none. */
export function nameOf(ctx: DwgContext, obj: Ptr): string {
  if (!obj) return ''
  return String(dynapiValue<string>(ctx, ctx.wasm.dwg_object_to_object_tio(obj), 'name') ?? '')
}
