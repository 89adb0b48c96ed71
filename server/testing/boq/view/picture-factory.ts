import type {
  Picture,
  PictureBlock,
  PictureColour,
  PictureEntity,
  Shape,
} from '../../../boq/model/picture.ts'
import type { Point } from '../../../boq/model/primitives.ts'

/** Pictures for tests: a few entities written out, or the 200,000-entity drawing of the bench. */

export const point = (x: number, y: number): Point => ({ x, y, z: 0 })

let nextHandle = 0x100

export function entity(
  shape: Shape | null,
  options: { layer?: string; colour?: PictureColour; handle?: string } = {},
): PictureEntity {
  return {
    handle: options.handle ?? (nextHandle++).toString(16).toUpperCase(),
    layer: options.layer ?? 'Walls',
    colour: options.colour ?? 'bylayer',
    shape,
  }
}

export function insert(
  definition: string,
  at: Point,
  options: Partial<
    Omit<Extract<Shape, { kind: 'insert' }>, 'kind' | 'definition' | 'position'>
  > = {},
): Shape {
  return {
    kind: 'insert',
    definition,
    position: at,
    scale: point(1, 1),
    rotation: 0,
    columns: 1,
    rows: 1,
    columnSpacing: 0,
    rowSpacing: 0,
    ...options,
  }
}

export function picture(
  modelSpace: PictureEntity[],
  options: {
    blocks?: Record<string, PictureBlock>
    layerColours?: Record<string, number>
    hiddenLayers?: string[]
  } = {},
): Picture {
  return {
    modelSpace,
    blocks: new Map(Object.entries(options.blocks ?? {})),
    layerColours: new Map(Object.entries(options.layerColours ?? {})),
    hiddenLayers: new Set(options.hiddenLayers ?? []),
  }
}

export const SYNTHETIC_ENTITIES = 200_000

/**
 * The bench's synthetic drawing (bench/result-page.bench.ts) as a reader would report it: lines,
 * circles and closed polylines on 200 layers, and references to 500 one-circle blocks, on a grid
 * 500 entities wide.
 */
export function syntheticPicture(entities = SYNTHETIC_ENTITIES): Picture {
  const blocks = new Map<string, PictureBlock>()
  for (let b = 0; b < 500; b++) {
    blocks.set(`B${b}`, {
      base: point(0, 0),
      entities: [
        {
          handle: (0x1000 + b).toString(16).toUpperCase(),
          layer: '0',
          colour: 'bylayer',
          shape: { kind: 'circle', center: point(0, 0), radius: 1 + (b % 5) },
        },
      ],
    })
  }
  const layerColours = new Map<string, number>()
  for (let l = 0; l < 200; l++) layerColours.set(`L${l}`, (l * 0x010305) & 0xffffff)
  const modelSpace: PictureEntity[] = new Array(entities)
  for (let i = 0; i < entities; i++) {
    const x = (i % 500) * 20
    const y = Math.floor(i / 500) * 20
    let shape: Shape
    switch (i % 4) {
      case 0:
        shape = { kind: 'line', a: point(x, y), b: point(x + 15, y + 5) }
        break
      case 1:
        shape = { kind: 'circle', center: point(x, y), radius: 4 }
        break
      case 2:
        shape = {
          kind: 'polyline',
          vertices: [
            { x, y, z: 0, bulge: 0 },
            { x: x + 10, y, z: 0, bulge: 0 },
            { x: x + 10, y: y + 10, z: 0, bulge: 0 },
          ],
          closed: true,
        }
        break
      default:
        shape = insert(`B${i % 500}`, point(x, y))
    }
    modelSpace[i] = {
      handle: (0x10000 + i).toString(16).toUpperCase(),
      layer: `L${i % 200}`,
      colour: 'bylayer',
      shape,
    }
  }
  return { modelSpace, blocks, layerColours, hiddenLayers: new Set() }
}
