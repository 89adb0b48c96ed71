import { chosenCurrency, currencyCodes, currencyName } from '../utils/currencies'
import { fieldId } from '../utils/settings-problems'
import { FieldProblem, invalidProps } from './field-problem'

/** An example amount in a currency, as Intl writes it (`€1,234.56`). */
const example = (code: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: code }).format(1234.56)

/**
 * The bill's currency: an ISO code chosen from those this browser knows, with the symbol and the
 * decimals its amounts get (from Intl, as the server prices them); none leaves amounts bare, to
 * two decimals.
 */
export function CurrencyField({
  value,
  problem,
  onChange,
}: {
  value: string
  problem: string | undefined
  onChange(code: string): void
}) {
  const id = fieldId('currency')
  const currency = chosenCurrency(value)
  return (
    <div className="flex flex-col gap-0.5 text-sm">
      <label htmlFor={id} className="font-medium text-slate-700">
        Currency
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className="w-80 max-w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600"
          {...invalidProps('currency', problem)}
        >
          <option value="">None (amounts without a currency, 2 decimals)</option>
          {currencyCodes(value).map((code) => (
            <option key={code} value={code}>
              {code} – {currencyName(code)}
            </option>
          ))}
        </select>
        {currency ? (
          <span className="text-slate-600">
            {`Symbol ${currency.symbol}, ${currency.decimals} ${currency.decimals === 1 ? 'decimal' : 'decimals'}: amounts show as ${example(currency.code)}`}
          </span>
        ) : null}
      </div>
      <FieldProblem field="currency" problem={problem} />
    </div>
  )
}
