/**
 * A TEXT's or MTEXT's words as a person reads them: MTEXT's formatting codes taken out
 * (`{\fArial|b1;Kitchen}` → `Kitchen`, `\P` a new paragraph → a space), `%%c`-style codes of TEXT
 * as their characters, runs of spaces as one.
 */
export function plainText(text: string): string {
  return text
    .replace(/\\P/g, ' ')
    .replace(/\\[ACFHQTWfhpq][^;\\{}]*;/g, '')
    .replace(/\\S([^;]*)[/^#]([^;]*);/g, '$1/$2')
    .replace(/\\[LlOoKkNn~]/g, (code) => (code === '\\~' ? ' ' : ''))
    .replace(/\\([\\{}])/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/%%[cC]/g, 'ø')
    .replace(/%%[dD]/g, '°')
    .replace(/%%[pP]/g, '±')
    .replace(/\s+/g, ' ')
    .trim()
}
