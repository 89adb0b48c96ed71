import type { Group } from './compile.ts'
import type { Piece } from './piece.ts'

/** Letters of a layer or block name that narrow the groups to try. */
const KEY_LENGTH = 3

/**
 * First-match search over many groups: most rules name their layer or block by a literal start
 * (`Walls*`, `DOOR`), so a piece is tried only against the groups whose start its names can
 * have, and those without one, in rule order. The groups to try are worked out once per
 * distinct start of layer and block: a drawing has few.
 */
export function firstMatcher(groups: Group[]): (piece: Piece) => Group | undefined {
  const gated = groups.map((group) =>
    group.gate ? { ...group.gate, prefix: group.gate.prefix.slice(0, KEY_LENGTH) } : null,
  )
  const memo = new Map<string, Group[]>()
  const candidates = (layer: string, block: string | undefined): Group[] => {
    const key = `${layer}\u0000${block ?? '\u0001'}`
    let list = memo.get(key)
    if (!list) {
      list = groups.filter((_, i) => {
        const gate = gated[i]
        if (!gate) return true
        const name = gate.field === 'layer' ? layer : block
        return name?.startsWith(gate.prefix) === true
      })
      memo.set(key, list)
    }
    return list
  }
  return (piece) => {
    const { layer, block } = piece.keys
    const list = candidates(layer.slice(0, KEY_LENGTH), block?.slice(0, KEY_LENGTH))
    for (const group of list) if (group.takes(piece)) return group
    return undefined
  }
}
