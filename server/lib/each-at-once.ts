/**
 * Runs `work` on each of `list`, at most `atOnce` at a time (reads and requests that would swamp
 * a disk, a database or the cloud if all were sent together), each given its index.
 */
export async function eachAtOnce<T>(
  list: readonly T[],
  atOnce: number,
  work: (one: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    for (let index = next++; index < list.length; index = next++) {
      await work(list[index] as T, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(atOnce, list.length) }, worker))
}
