/** Why a model-space entity type is not measured, by reader type name (DWG and DXF spellings). */
const REASONS: [RegExp, string][] = [
  [/^(TEXT|MTEXT|ATTDEF|ARCALIGNEDTEXT|RTEXT)$/, 'text: no quantity'],
  [
    /^(DIMENSION.*|ARC_DIMENSION|LARGE_RADIAL_DIMENSION|TOLERANCE|LEADER|MULTILEADER|MLEADER)$/,
    'annotation: no quantity',
  ],
  [/^(ACAD_TABLE|TABLE)$/, 'table: no quantity'],
  [/^(XLINE|RAY)$/, 'infinite construction line: no length'],
  [/^POINT$/, 'point: no length'],
  [
    /^(3DFACE|3DSOLID|BODY|REGION|SURFACE|.*SURFACE|MESH|POLYLINE_PFACE|POLYLINE_MESH|POLYFACE_MESH|POLYGON_MESH)$/,
    '3D or surface object: not measured',
  ],
  [/^(SOLID|TRACE|WIPEOUT)$/, 'filled shape: not measured'],
  [
    /^(IMAGE|OLE2FRAME|OLEFRAME|PDFUNDERLAY|DWFUNDERLAY|DGNUNDERLAY|UNDERLAY)$/,
    'image or embedded object: not measured',
  ],
  [/^(VIEWPORT)$/, 'viewport: not drawing content'],
  [/^(LIGHT|SUN|CAMERA)$/, 'rendering object: not measured'],
  [/^(MLINE)$/, 'multiline: not measured'],
  [/^(SHAPE)$/, 'shape: not measured'],
  [/^(ACAD_PROXY_ENTITY|PROXY_ENTITY|PROXY)$/, 'proxy object of another application: not measured'],
]

export function skipReason(type: string): string {
  for (const [pattern, reason] of REASONS) if (pattern.test(type)) return reason
  return 'custom or unsupported object: not measured'
}
