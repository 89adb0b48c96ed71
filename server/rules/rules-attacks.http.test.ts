import { rm } from 'node:fs/promises'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { MAX_FIGURE } from '#contract/takeoff-rules.ts'
import { PricedJobSchema, RulesDocumentSchema } from '#contract/takeoff-rules-api.ts'
import type { TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback, two users: Ann sends rules made to stall or overflow the
// engine (globs of a thousand stars, a rate of 1e308, a formula that overflows), Bob lists his
// jobs meanwhile. Ann gets a clear answer naming the row; Bob is answered during the attack.

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let rulesPath: string
let job: Job

/** The most attacks Ann sends waiting for Bob's answer: Bob must be answered before the last. */
const MOST_ATTACKS = 500

const item = { code: 'X.1', description: 'Anything', unit: 'nr' }

beforeAll(async () => {
  seedDir = await makeSeedDir(['2018_Dynblocks.dwg'])
  const started = await startSeveralUsersServer('boq-rules-attacks-', seedDir)
  server = started.server
  ann = await started.signInAs(server.url, 'Ann')
  bob = await started.signInAs(server.url, 'Bob')
  const drawing = await findDrawing(ann.json, '2018_Dynblocks.dwg')
  rulesPath = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/rules`
  const posted = await postExtract(ann, extractBody(drawing))
  expect(posted.status).toBe(202)
  job = await waitForJob(ann, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
  expect(job.status).toBe('succeeded')
}, 120_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

type Answer = { status: number; text: string }

/**
 * Ann sends the attack again and again while Bob lists his jobs, until Bob is answered: what
 * Ann got, and how many of her attacks had ended when Bob's answer came.
 */
async function whileAttacking(attack: () => Promise<Response>) {
  const answers: Answer[] = []
  const first = attack()
  let bobAnswered = false
  const bobs = bob('/api/boq/jobs').then(async (response) => {
    bobAnswered = true
    return { status: response.status, attacksEnded: answers.length }
  })
  let next = first
  while (answers.length < MOST_ATTACKS) {
    const response = await next
    answers.push({ status: response.status, text: await response.text() })
    if (bobAnswered) break
    next = attack()
  }
  return { answers, bob: await bobs }
}

function putRules(rules: unknown[]): Promise<Response> {
  return ann(rulesPath, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': '0' },
    body: JSON.stringify({ rules }),
  })
}

function preview(rules: unknown[]): Promise<Response> {
  return ann(`/api/boq/jobs/${job.id}/price`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  })
}

describe('rules sent to stall or overflow the engine', () => {
  it('refuses a kind of a thousand stars with 400 naming the row, Bob answered meanwhile', async () => {
    const kind = `${'*'.repeat(999)}z`
    const { answers, bob: bobs } = await whileAttacking(() =>
      putRules([
        { match: 'count', ...item },
        { match: 'length', kind, ...item },
      ]),
    )
    expect(bobs.status).toBe(200)
    expect(bobs.attacksEnded).toBeLessThan(MOST_ATTACKS)
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 400,
        text: expect.stringMatching(/^Row 2: kind '\*{40}…' is not a kind of linework/),
      })
    }
    expect(v.parse(RulesDocumentSchema, await ann.json(rulesPath)).version).toBe(0)
  }, 60_000)

  it('refuses a rate of 1e308 with 400 naming the row, Bob answered meanwhile', async () => {
    const { answers, bob: bobs } = await whileAttacking(() =>
      putRules([{ match: 'count', rate: 1e308, ...item }]),
    )
    expect(bobs.status).toBe(200)
    expect(bobs.attacksEnded).toBeLessThan(MOST_ATTACKS)
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 400,
        text: 'Row 1: rate 1e+308 is past 1e15 either way, the largest taken.',
      })
    }
    expect(v.parse(RulesDocumentSchema, await ann.json(rulesPath)).version).toBe(0)
  }, 60_000)

  it('prices with globs of a thousand stars in every filter at once, Bob answered meanwhile', async () => {
    const stars = `${'*'.repeat(999)}z`
    const { answers, bob: bobs } = await whileAttacking(() =>
      preview([
        { match: 'count', block: stars, layer: `${'*a'.repeat(499)}*z`, ...item },
        { match: 'count', attribute: `TAG=${stars.slice(4)}`, visibility: stars, ...item },
        { match: 'count', block: '*', ...item },
      ]),
    )
    expect(bobs.status).toBe(200)
    expect(bobs.attacksEnded).toBeLessThan(MOST_ATTACKS)
    for (const answer of answers) expect(answer, answer.text).toMatchObject({ status: 200 })
    const priced = v.parse(PricedJobSchema, JSON.parse(answers[0].text)).priced
    expect(priced.items.map((i) => i.rules)).toEqual([[3]])
  }, 60_000)

  it('flags an item whose formula overflows, with no null where a figure is', async () => {
    const response = await preview([
      { match: 'count', block: '*', quantity: 'count * 1e308', rate: 1, ...item },
    ])
    expect(response.status).toBe(200)
    const text = await response.text()
    const priced = v.parse(PricedJobSchema, JSON.parse(text)).priced
    expect(priced.items).toHaveLength(1)
    const [overflowed] = priced.items
    expect(overflowed).toMatchObject({ quantity: 0, amount: 0 })
    expect(overflowed.flags[0]).toMatch(
      /^rule 1: count \* 1e308 gives 1e\+308 for .*, past 1e15 either way, the largest taken; left out of the quantity$/,
    )
    const figures = [
      ...priced.items.flatMap((i) => [i.quantity, i.amount]),
      ...priced.sections.map((s) => s.subtotal),
      priced.total,
    ]
    expect(figures.every((x) => typeof x === 'number' && Math.abs(x) <= MAX_FIGURE)).toBe(true)
  })
})
