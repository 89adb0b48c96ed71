import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DwgContext, Ptr } from './context.ts'

/** Types whose DXF name varies from object to object (it is the class's name). */
const UNNAMED_TYPES = new Set<number>([
  T.DWG_TYPE_PROXY_ENTITY,
  T.DWG_TYPE_PROXY_OBJECT,
  T.DWG_TYPE_UNKNOWN_ENT,
  T.DWG_TYPE_UNKNOWN_OBJ,
])

/** Entity types by their DXF name (the reader type name entities are counted by). */
export class TypeNames {
  private readonly ctx: DwgContext
  private readonly names = new Map<number, string>()

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  /** The DXF name of an object of this type: one per type, except proxies and unknown classes. */
  of(obj: Ptr, type: number): string {
    const cached = this.names.get(type)
    if (cached !== undefined && !this.ctx.verify) return cached
    const name = this.ctx.wasm.dwg_object_get_dxfname(obj) || 'UNKNOWN'
    if (cached !== undefined && cached !== name) throw new Error(`type ${type}: names differ`)
    if (!UNNAMED_TYPES.has(type)) this.names.set(type, name)
    return name
  }
}

/** Block references, which place a block definition instead of holding geometry. */
export function isReference(type: number): boolean {
  return type === T.DWG_TYPE_INSERT || type === T.DWG_TYPE_MINSERT
}

/** Parts of another entity (vertices, attributes, block begin and end), not entities of their own. */
export function isSubentity(type: number): boolean {
  return (
    type === T.DWG_TYPE_VERTEX_2D ||
    type === T.DWG_TYPE_VERTEX_3D ||
    type === T.DWG_TYPE_VERTEX_MESH ||
    type === T.DWG_TYPE_VERTEX_PFACE ||
    type === T.DWG_TYPE_VERTEX_PFACE_FACE ||
    type === T.DWG_TYPE_ATTRIB ||
    type === T.DWG_TYPE_SEQEND ||
    type === T.DWG_TYPE_BLOCK ||
    type === T.DWG_TYPE_ENDBLK
  )
}

/** TEXT and MTEXT: not measured, but what a room's name is read from. */
export function isText(type: number): boolean {
  return type === T.DWG_TYPE_TEXT || type === T.DWG_TYPE_MTEXT
}
