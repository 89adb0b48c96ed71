import type { Loop, LoopEdge, Point } from '../model/primitives.ts'
import { arcLength, ellipseLength, splineLength } from './curves/curves.ts'
import { polylineLength } from './curves/polyline.ts'

/**
 * A hatch's perimeter: the length of every boundary loop it has, holes included (a room's
 * perimeter with a column in it runs round the column too).
 */
export function hatchPerimeter(loops: Loop[]): number {
  let total = 0
  for (const loop of loops) total += loopLength(loop)
  return total
}

function loopLength(loop: Loop): number {
  if (loop.kind === 'polyline') return polylineLength(loop.vertices, true)
  let total = 0
  for (const edge of loop.edges) total += edgeLength(edge)
  // The gap between the last line and the first closes the loop (nothing when they meet), as
  // its area takes it.
  const first = loop.edges[0]
  const last = loop.edges[loop.edges.length - 1]
  if (first?.kind === 'line' && last?.kind === 'line') total += distance(last.b, first.a)
  return total
}

function edgeLength(edge: LoopEdge): number {
  switch (edge.kind) {
    case 'line':
      return distance(edge.a, edge.b)
    case 'arc':
      return arcLength(edge.radius, edge.start, edge.end)
    case 'ellipse': {
      // Elliptic edges store angles: the curve's parameter is the angle on the unstretched circle.
      const parameter = (angle: number) => Math.atan2(Math.sin(angle) / edge.ratio, Math.cos(angle))
      return ellipseLength(edge.major, edge.ratio, parameter(edge.start), parameter(edge.end))
    }
    case 'spline':
      return splineLength(edge.spline)
  }
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)
}
