import type { Boq } from './schema.ts'
export async function toXlsx(boq: Boq): Promise<Uint8Array> {
  return new TextEncoder().encode(JSON.stringify(boq))
}
