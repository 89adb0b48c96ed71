import type { Boq } from './schema.ts'
export function toCsv(boq: Boq): string {
  return JSON.stringify(boq)
}
