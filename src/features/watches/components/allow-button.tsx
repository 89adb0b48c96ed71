import { useMutation } from '@tanstack/react-query'
import { browser } from '../../../lib/browser'
import { errorText } from '../../../lib/http-errors'
import { fetchUrlAnswer } from '../../../lib/url-answer'

/**
 * Sends the person to where they allow BOQ to act for them while they are away: the consent URL
 * answers the authorize URL (as the sign-in's does), and the browser goes there.
 */
export function AllowButton({ consentUrl }: { consentUrl: string }) {
  const allow = useMutation({
    mutationFn: () => fetchUrlAnswer(consentUrl),
    onSuccess: (url) => browser.assign(url),
  })
  return (
    <span className="flex flex-col gap-1">
      <button
        type="button"
        disabled={allow.isPending}
        onClick={() => allow.mutate()}
        className="self-start rounded bg-sky-700 px-3 py-1 text-xs font-medium text-white hover:bg-sky-800 disabled:opacity-60"
      >
        Allow
      </button>
      {allow.isError ? (
        <span role="alert" className="text-xs text-red-800">
          Could not ask Autodesk for permission: {errorText(allow.error)}
        </span>
      ) : null}
    </span>
  )
}
