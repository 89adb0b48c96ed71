import type { BoqUnits } from './schema.ts'

// INSUNITS codes as AutoCAD defines them: [name, length symbol].
const UNITS: Record<number, [string, string]> = {
  1: ['inches', 'in'],
  2: ['feet', 'ft'],
  3: ['miles', 'mi'],
  4: ['millimetres', 'mm'],
  5: ['centimetres', 'cm'],
  6: ['metres', 'm'],
  7: ['kilometres', 'km'],
  8: ['microinches', 'µin'],
  9: ['mils', 'mil'],
  10: ['yards', 'yd'],
  11: ['ångströms', 'Å'],
  12: ['nanometres', 'nm'],
  13: ['microns', 'µm'],
  14: ['decimetres', 'dm'],
  15: ['decametres', 'dam'],
  16: ['hectometres', 'hm'],
  17: ['gigametres', 'Gm'],
  18: ['astronomical units', 'AU'],
  19: ['light years', 'ly'],
  20: ['parsecs', 'pc'],
  21: ['US survey feet', 'ft (US survey)'],
}

export function unitsOf(code: number): BoqUnits {
  const known = UNITS[code]
  if (!known)
    return {
      code: Number.isFinite(code) ? code : 0,
      name: 'unitless',
      length: 'units',
      area: 'units²',
    }
  return { code, name: known[0], length: known[1], area: `${known[1]}²` }
}

const RELEASES: Record<string, string> = {
  AC1009: 'AutoCAD R11/R12',
  AC1012: 'AutoCAD R13',
  AC1014: 'AutoCAD R14',
  AC1015: 'AutoCAD 2000',
  AC1018: 'AutoCAD 2004',
  AC1021: 'AutoCAD 2007',
  AC1024: 'AutoCAD 2010',
  AC1027: 'AutoCAD 2013',
  AC1032: 'AutoCAD 2018',
}

export function releaseOf(version: string): string {
  return RELEASES[version] ?? (version.startsWith('AC') ? `AutoCAD (${version})` : version)
}
