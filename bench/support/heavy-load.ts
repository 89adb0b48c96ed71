/**
 * The heavy users of the heavy-requests bench, in a thread of their own so that reading their
 * answers (megabytes each) does not run on the server's thread, as it would not with real
 * clients. Posts back how many requests were answered, refused (429/503) or failed.
 */
import { parentPort, workerData } from 'node:worker_threads'

type Load = {
  base: string
  pairs: [string, string[]][]
  rounds: number
  geometryRequests: number
}

const { base, pairs, rounds, geometryRequests } = workerData as Load
const outcomes = { answered: 0, refused: 0, failed: 0 }

async function count(user: string, path: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${base}${path}`, { headers: { 'x-user': user, ...headers } })
  await answer.arrayBuffer()
  if (answer.ok) outcomes.answered++
  else if (answer.status === 429 || answer.status === 503) outcomes.refused++
  else outcomes.failed++
}

for (let round = 0; round < rounds; round++) {
  const changeBills = pairs.flatMap(([user, [from, to]]) => [
    count(user, `/api/boq/compare?from=${from}&to=${to}&format=xlsx`),
    count(user, `/api/boq/compare?from=${to}&to=${from}&format=xlsx`),
  ])
  const unpacked = Array.from({ length: geometryRequests }, (_, i) => {
    const [user, [from]] = pairs[i % pairs.length] ?? ['', []]
    return count(user, `/api/boq/jobs/${from}/geometry`, { 'accept-encoding': 'identity' })
  })
  await Promise.all([...changeBills, ...unpacked])
}
parentPort?.postMessage(outcomes)
