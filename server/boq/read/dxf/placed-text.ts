import type { PlacedText } from '../../model/drawing.ts'
import { plainText } from '../plain-text.ts'
import { type DxfEntity, handleOf, num, pt } from './geometry.ts'

/**
 * A TEXT's or MTEXT's words and where it stands: an aligned TEXT (72/73 set) stands at its
 * alignment point (11), as AutoCAD places it; others at their insertion point. Null for no words.
 */
export function placedText(e: DxfEntity): PlacedText | null {
  const text = plainText(String(e.text ?? ''))
  if (!text) return null
  const aligned = e.type === 'TEXT' && (num(e.halign) !== 0 || num(e.valign) !== 0) && e.endPoint
  const at = pt(e.type === 'MTEXT' ? e.insertionPoint : aligned ? e.endPoint : e.startPoint)
  if (!Number.isFinite(at.x) || !Number.isFinite(at.y)) return null
  return { layer: String(e.layer ?? '0'), handle: handleOf(e), text, x: at.x, y: at.y }
}
