// lightFormat needs no locale data, unlike format: a few KB less in the bundle.
import { lightFormat } from 'date-fns/lightFormat'

/** 'YYYY-MM-DD HH:mm:ss' in the browser's time zone; the input unchanged when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : lightFormat(date, 'yyyy-MM-dd HH:mm:ss')
}
