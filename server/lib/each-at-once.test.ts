import { setImmediate } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { eachAtOnce } from './each-at-once.ts'

it('does each one, with its index, never more than so many at once', async () => {
  let running = 0
  let most = 0
  const done: string[] = []
  await eachAtOnce(['a', 'b', 'c', 'd', 'e'], 2, async (one, index) => {
    running++
    most = Math.max(most, running)
    await setImmediate()
    done[index] = one
    running--
  })
  expect(most).toBe(2)
  expect(done).toEqual(['a', 'b', 'c', 'd', 'e'])
  await eachAtOnce([], 3, async () => {
    throw new Error('nothing to do')
  })
})
