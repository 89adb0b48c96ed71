// The fake server's bill settings (MSW handlers over fakeApi.billSettings), as the server answers.
import { HttpResponse, http } from 'msw'
import type { BillSettingsDocument } from '#contract/bill-settings.ts'
import { fakeApi } from './fake-api'

const plain = (status: number, body: string) =>
  new HttpResponse(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

const NEVER_SAVED: BillSettingsDocument = { version: 0, savedBy: null, savedAt: null, settings: {} }

const versionsOf = (projectId: string) => fakeApi.billSettings.versions[projectId] ?? []
const currentOf = (projectId: string) => versionsOf(projectId).at(-1) ?? NEVER_SAVED

const withTag = (document: BillSettingsDocument) =>
  HttpResponse.json(document, { headers: { ETag: `"${document.version}"` } })

const path = '*/api/boq/projects/:projectId/bill-settings'

export const billSettingsHandlers = [
  http.get(path, ({ params }) => withTag(currentOf(String(params.projectId)))),
  http.get(`${path}/history`, ({ params }) =>
    HttpResponse.json(
      versionsOf(String(params.projectId))
        .map(({ version, savedBy, savedAt }) => ({ version, savedBy, savedAt }))
        .reverse(),
    ),
  ),
  http.get(`${path}/history/:version`, ({ params }) => {
    const found = versionsOf(String(params.projectId)).find(
      (saved) => saved.version === Number(params.version),
    )
    return found ? withTag(found) : plain(404, 'There is no such version of these bill settings.')
  }),
  http.put(path, async ({ request, params }) => {
    const projectId = String(params.projectId)
    const current = currentOf(projectId)
    const ifMatch = request.headers.get('If-Match')
    if (!ifMatch) return plain(428, 'Say which version you changed (If-Match).')
    if (ifMatch.replaceAll('"', '') !== String(current.version)) {
      return plain(
        412,
        `Saved by ${current.savedBy} at 10:42 UTC since you opened them: reload to see their bill settings.`,
      )
    }
    const body = (await request.json()) as { settings?: unknown }
    const refused = fakeApi.billSettings.check(body.settings)
    if (refused !== null) return plain(400, refused)
    const next: BillSettingsDocument = {
      version: current.version + 1,
      savedBy: fakeApi.profile.name,
      savedAt: '2024-06-07T08:09:10.000Z',
      settings: body.settings as BillSettingsDocument['settings'],
    }
    fakeApi.billSettings.versions[projectId] = [...versionsOf(projectId), next]
    return withTag(next)
  }),
]
