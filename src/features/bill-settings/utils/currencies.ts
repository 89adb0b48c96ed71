import { type Currency, currencyOf, isCurrencyCode } from '#contract/bill-settings.ts'

const names =
  typeof Intl.DisplayNames === 'function'
    ? new Intl.DisplayNames('en', { type: 'currency', fallback: 'code' })
    : null

/** A currency's English name (`Euro`), or its code when the runtime has none. */
export function currencyName(code: string): string {
  return names?.of(code) ?? code
}

/** `EUR, Euro (€, 2 decimals)`: what a bill in it shows. */
export function currencyWords(currency: Currency): string {
  const decimals = currency.decimals === 1 ? '1 decimal' : `${currency.decimals} decimals`
  const symbol = currency.symbol === currency.code ? '' : `${currency.symbol}, `
  return `${currency.code}, ${currencyName(currency.code)} (${symbol}${decimals})`
}

let known: string[] | undefined

/**
 * The ISO codes this browser knows, in order, with the one a saved version has even if this
 * browser does not know it (so that it shows as it was saved).
 */
export function currencyCodes(saved: string): string[] {
  known ??=
    typeof Intl.supportedValuesOf === 'function'
      ? Intl.supportedValuesOf('currency').filter(isCurrencyCode)
      : ['AUD', 'CAD', 'CHF', 'EUR', 'GBP', 'JPY', 'USD']
  return saved === '' || known.includes(saved) ? known : [saved, ...known]
}

/** What the currency chosen shows, or null for none or a code that is not one. */
export function chosenCurrency(code: string): Currency | null {
  return code !== '' && isCurrencyCode(code) ? currencyOf(code) : null
}
