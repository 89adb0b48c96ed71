import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DwgContext, Ptr } from './context.ts'
import { dictionaryEntry, objectOfType } from './dictionaries.ts'

type Point = { x: number; y: number; z: number }

/**
 * A numeric parameter of a dynamic block definition: the property it gives its references (the
 * name the Properties palette shows), and the node of the block's evaluation graph its references'
 * enhanced block data keys their current value by.
 */
export type NumericParameter = {
  node: string
  name: string
  kind: 'linear' | 'rotation'
  /** The definition's own base and end points (a rotation's angle is measured from them). */
  base: Point
  end: Point
}

/** Decimals a property's value keeps: enough for any drawing unit, no floating-point noise. */
const DECIMALS = 6

/**
 * The numeric parameters of dynamic block definitions (linear: a distance; rotation: an angle),
 * read from each definition's evaluation graph (record's extension dictionary →
 * `ACAD_ENHANCEDBLOCK`), once per definition.
 */
export class DynamicParameters {
  private readonly ctx: DwgContext
  private readonly byRecord = new Map<Ptr, NumericParameter[]>()

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  /** The numeric parameters of a dynamic block's record, in the graph's order. */
  of(record: Ptr): NumericParameter[] {
    let parameters = this.byRecord.get(record)
    if (parameters === undefined) {
      parameters = record ? this.read(record) : []
      this.byRecord.set(record, parameters)
    }
    return parameters
  }

  private read(record: Ptr): NumericParameter[] {
    const { ctx } = this
    let xdict: Ptr = 0
    try {
      const tio = ctx.wasm.dwg_object_to_object_tio(record)
      xdict = Number(ctx.lib.dwg_dynapi_common_value(tio, 'xdicobjhandle').data) || 0
    } catch {
      return []
    }
    const graphRef = dictionaryEntry(ctx, xdict, 'ACAD_ENHANCEDBLOCK')
    const graph = objectOfType(ctx, graphRef, T.DWG_TYPE_EVALUATION_GRAPH)
    if (!graph) return []
    const out: NumericParameter[] = []
    const names = new Set<string>()
    for (const obj of this.nodes(graph)) {
      const parameter = this.parameter(obj)
      // Two parameters of one name: the palette could not tell them apart either; the first stays.
      if (!parameter || names.has(parameter.name.toLowerCase())) continue
      names.add(parameter.name.toLowerCase())
      out.push(parameter)
    }
    return out
  }

  /** The objects an evaluation graph's nodes hold (each node's `evalexpr` reference). */
  private nodes(graph: Ptr): Ptr[] {
    const { ctx } = this
    const tio = ctx.wasm.dwg_object_to_object_tio(graph)
    const count = ctx.fields.uint(tio, 'EVALUATION_GRAPH.num_nodes', 4)
    const nodes = ctx.fields.uint(tio, 'EVALUATION_GRAPH.nodes', 4)
    const size = ctx.lib.dwg_dynapi_subclass_size('EVAL_Node')
    const at = ctx.lib.dwg_dynapi_subclass_field_offset('EVAL_Node', 'evalexpr')
    if (!size || !ctx.heap.has(nodes, count * size)) return []
    const out: Ptr[] = []
    for (let i = 0; i < count; i++) {
      const ref = ctx.heap.u32(nodes + i * size + at)
      const obj = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
      if (obj) out.push(obj)
    }
    return out
  }

  /** A linear or rotation parameter, with its property name and node; null for anything else. */
  private parameter(obj: Ptr): NumericParameter | null {
    const { ctx } = this
    const type = ctx.wasm.dwg_object_get_fixedtype(obj)
    const kind =
      type === T.DWG_TYPE_BLOCKLINEARPARAMETER
        ? 'linear'
        : type === T.DWG_TYPE_BLOCKROTATIONPARAMETER
          ? 'rotation'
          : null
    if (!kind) return null
    const tio = ctx.wasm.dwg_object_to_object_tio(obj)
    const label = this.text(tio, kind === 'linear' ? 'distance_name' : 'angle_name')
    const name = label || this.text(tio, 'name')
    // The node id the references' data is keyed by: the parameter's own expression's `nodeid`.
    const expr = ctx.lib.dwg_dynapi_entity_field_offset(tio, 'evalexpr')
    const at = tio + expr + ctx.lib.dwg_dynapi_subclass_field_offset('EvalExpr', 'nodeid')
    if (!name || !ctx.heap.has(at, 4)) return null
    const base = ctx.lib.dwg_dynapi_entity_data<Point>(tio, 'def_basept')
    const end = ctx.lib.dwg_dynapi_entity_data<Point>(tio, 'def_endpt')
    if (!base || !end) return null
    return { node: String(ctx.heap.u32(at)), name, kind, base, end }
  }

  private text(tio: Ptr, field: string): string {
    try {
      return String(this.ctx.lib.dwg_dynapi_entity_data<string>(tio, field) ?? '').trim()
    } catch {
      return ''
    }
  }
}

/**
 * A parameter's current value from its XRECORD of a reference's enhanced block data (its points,
 * group 10, base then end), as text: a linear parameter's distance; a rotation's angle in degrees,
 * from the definition's direction, counter-clockwise. Null when the record holds no such points.
 */
export function parameterValue(parameter: NumericParameter, points: Point[]): string | null {
  const [base, end] = points
  if (!base || !end) return null
  const dx = end.x - base.x
  const dy = end.y - base.y
  if (parameter.kind === 'linear') return decimal(Math.hypot(dx, dy, end.z - base.z))
  const from = Math.atan2(parameter.end.y - parameter.base.y, parameter.end.x - parameter.base.x)
  const degrees = (((Math.atan2(dy, dx) - from) * 180) / Math.PI + 360) % 360
  return decimal(Number(degrees.toFixed(DECIMALS)) % 360)
}

/** A number as plain decimal text (no exponent, no `-0`), as the rules' formulas read it. */
function decimal(value: number): string {
  const rounded = Number(value.toFixed(DECIMALS))
  return Object.is(rounded, -0) ? '0' : String(rounded)
}
