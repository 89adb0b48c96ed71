/**
 * Entity types whose drawing needs fonts. The viewer would fetch them from a CDN the app's
 * Content-Security-Policy (and a machine without internet) refuses, so the view leaves text out.
 */
const NEEDS_FONTS = [
  'TEXT',
  'MTEXT',
  'ATTDEF',
  'ATTRIB',
  'ARCALIGNEDTEXT',
  'TOLERANCE',
  'MULTILEADER',
  'ACAD_TABLE',
  'SHAPE',
]

/**
 * Embedded OLE objects: the viewer shows their picture through a `blob:` URL, which the policy
 * (`img-src`) refuses too, so they are left out as well.
 */
const EMBEDDED_PICTURES = ['OLE2FRAME', 'OLEFRAME']

/** The entity types the drawing view leaves out, as DWG and DXF name them. */
export const LEFT_OUT_TYPES: ReadonlySet<string> = new Set([...NEEDS_FONTS, ...EMBEDDED_PICTURES])
