import { describe, expect, it } from 'vitest'
import { RULES_STORE_PLACES, rulesStoresIn } from '../../testing/rules/store-places.ts'

describe.each(RULES_STORE_PLACES)('the RulesStore contract: %s store', (_name, makePlace) => {
  const { placeOf, openStore } = rulesStoresIn(makePlace)

  const rule = (code: string) => ({ match: 'count' as const, block: 'Door*', code, rate: 10 })

  it('keeps every saved version of a project’s rules with who and when, newest first', async () => {
    const store = await openStore()
    expect(await store.rules('p1', 'rules')).toBeUndefined()
    expect(await store.rulesHistory('p1', 'rules')).toEqual([])
    const first = await store.saveRules('p1', 'rules', 0, [rule('A')], 'Ann')
    expect(first).toEqual({
      saved: { version: 1, savedBy: 'Ann', savedAt: expect.any(String), rows: [rule('A')] },
    })
    await store.saveRules('p1', 'rules', 1, [rule('B'), rule('C')], 'Bob')
    // Another project, and the classification, are versioned on their own.
    await store.saveRules('p2', 'rules', 0, [rule('Z')], 'Cy')
    await store.saveRules('p1', 'classification', 0, [{ code: 'A', title: 'Doors' }], 'Ann')
    expect(await store.rules('p1', 'rules')).toMatchObject({
      version: 2,
      savedBy: 'Bob',
      rows: [rule('B'), rule('C')],
    })
    expect(await store.rules('p1', 'classification')).toMatchObject({
      version: 1,
      rows: [{ code: 'A', title: 'Doors' }],
    })
    const history = await store.rulesHistory('p1', 'rules')
    expect(history.map(({ version, savedBy, rows }) => ({ version, savedBy, rows }))).toEqual([
      { version: 2, savedBy: 'Bob', rows: 2 },
      { version: 1, savedBy: 'Ann', rows: 1 },
    ])
    expect(Date.parse(history[0]?.savedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(history[1]?.savedAt ?? ''),
    )
  })

  it('answers each saved version by its number, and none for a version never saved or unreadable', async () => {
    const store = await openStore()
    await store.saveRules('p1', 'rules', 0, [rule('A')], 'Ann')
    await store.saveRules('p1', 'rules', 1, [rule('B')], 'Bob')
    await store.saveRules('p1', 'classification', 0, [{ code: 'A', title: 'Doors' }], 'Ann')
    expect(await store.savedRules('p1', 'rules', 1)).toEqual({
      version: 1,
      savedBy: 'Ann',
      savedAt: expect.any(String),
      rows: [rule('A')],
    })
    expect(await store.savedRules('p1', 'rules', 2)).toMatchObject({ savedBy: 'Bob' })
    expect(await store.savedRules('p1', 'classification', 1)).toMatchObject({
      rows: [{ code: 'A', title: 'Doors' }],
    })
    for (const version of [0, 3, -1, 1.5, 2 ** 40]) {
      expect(await store.savedRules('p1', 'rules', version)).toBeUndefined()
    }
    expect(await store.savedRules('p2', 'rules', 1)).toBeUndefined()
    expect(await store.savedRules('p1', 'classification', 2)).toBeUndefined()
    await (await placeOf()).damage.rulesVersion('p1', 'rules', 1)
    expect(await store.savedRules('p1', 'rules', 1)).toBeUndefined()
  })

  it('keeps every version of a project’s bill settings, refuses a stale save, answers each by its number', async () => {
    const store = await openStore()
    const eur = { currency: 'EUR', client: 'Harbour Ltd' }
    const prelims = {
      ...eur,
      adjustments: [{ kind: 'percent' as const, name: 'Preliminaries', percent: 10 }],
    }
    expect(await store.billSettings('p1')).toBeUndefined()
    expect(await store.billSettingsHistory('p1')).toEqual([])
    expect(await store.saveBillSettings('p1', 0, eur, 'Ann')).toEqual({
      saved: { version: 1, savedBy: 'Ann', savedAt: expect.any(String), settings: eur },
    })
    await store.saveBillSettings('p1', 1, prelims, 'Bob')
    // The project's tables, and another project's settings, are versioned on their own.
    await store.saveBillSettings('p2', 0, {}, 'Cy')
    expect(await store.rules('p1', 'rules')).toBeUndefined()
    expect(await store.billSettings('p1')).toMatchObject({ version: 2, settings: prelims })
    expect(await store.savedBillSettings('p1', 1)).toMatchObject({ savedBy: 'Ann', settings: eur })
    expect(await store.savedBillSettings('p1', 3)).toBeUndefined()
    expect(await store.savedBillSettings('p1', 0)).toBeUndefined()
    const history = await store.billSettingsHistory('p1')
    expect(history).toEqual([
      { version: 2, savedBy: 'Bob', savedAt: expect.any(String) },
      { version: 1, savedBy: 'Ann', savedAt: expect.any(String) },
    ])
    expect(await store.saveBillSettings('p1', 1, {}, 'Cy')).toEqual({
      conflict: { version: 2, savedBy: 'Bob', savedAt: expect.any(String) },
    })
    expect(await store.saveBillSettings('p9', 2, {}, 'Cy')).toEqual({ conflict: undefined })
    expect(await store.billSettings('p1')).toMatchObject({ version: 2 })
  })

  it('keeps every version of a project’s locations, refuses a stale save, answers each by its number', async () => {
    const store = await openStore()
    const rooms = { layer: 'A-AREA', label: 'text' }
    const tagged = { layer: '*-SPACE', label: 'attribute:NAME', labelLayer: 'A-TAGS' }
    expect(await store.locations('p1')).toBeUndefined()
    expect(await store.locationsHistory('p1')).toEqual([])
    expect(await store.saveLocations('p1', 0, [rooms], 'Ann')).toEqual({
      saved: { version: 1, savedBy: 'Ann', savedAt: expect.any(String), rows: [rooms] },
    })
    await store.saveLocations('p1', 1, [rooms, tagged], 'Bob')
    // The project's tables, and another project's locations, are versioned on their own.
    await store.saveLocations('p2', 0, [], 'Cy')
    expect(await store.rules('p1', 'rules')).toBeUndefined()
    expect(await store.locations('p1')).toMatchObject({ version: 2, rows: [rooms, tagged] })
    expect(await store.savedLocations('p1', 1)).toMatchObject({ savedBy: 'Ann', rows: [rooms] })
    for (const version of [0, 3, -1, 1.5, 2 ** 40]) {
      expect(await store.savedLocations('p1', version)).toBeUndefined()
    }
    expect(await store.locationsHistory('p1')).toEqual([
      { version: 2, savedBy: 'Bob', savedAt: expect.any(String), rows: 2 },
      { version: 1, savedBy: 'Ann', savedAt: expect.any(String), rows: 1 },
    ])
    expect(await store.saveLocations('p1', 1, [], 'Cy')).toEqual({
      conflict: { version: 2, savedBy: 'Bob', savedAt: expect.any(String) },
    })
    expect(await store.saveLocations('p9', 2, [], 'Cy')).toEqual({ conflict: undefined })
    expect(await store.locations('p1')).toMatchObject({ version: 2 })
  })

  it('skips a saved version that cannot be read, naming it: the newest readable one answers, and a save of it goes after', async () => {
    const warnings: string[] = []
    const store = await openStore({ log: (message) => warnings.push(message) })
    await store.saveRules('p1', 'rules', 0, [rule('A')], 'Ann')
    await store.saveRules('p1', 'rules', 1, [rule('B')], 'Bob')
    await store.saveRules('p1', 'classification', 0, [{ code: 'A', title: 'Doors' }], 'Ann')
    await (await placeOf()).damage.rulesVersion('p1', 'rules', 2)

    expect(await store.rules('p1', 'rules')).toMatchObject({
      version: 1,
      savedBy: 'Ann',
      rows: [rule('A')],
    })
    expect((await store.rulesHistory('p1', 'rules')).map((saved) => saved.version)).toEqual([1])
    expect(warnings).toContainEqual(
      expect.stringMatching(/unreadable saved (rules version 2 of project p1|.*\/rules\/2\.json)/),
    )
    expect(await store.rules('p1', 'classification')).toMatchObject({ version: 1 })

    // A stale save is refused, naming the newest readable version; a save of it goes after all.
    expect(await store.saveRules('p1', 'rules', 0, [rule('C')], 'Cy')).toEqual({
      conflict: expect.objectContaining({ version: 1, savedBy: 'Ann' }),
    })
    expect(await store.saveRules('p1', 'rules', 1, [rule('C')], 'Cy')).toMatchObject({
      saved: { version: 3, savedBy: 'Cy', rows: [rule('C')] },
    })
    expect(await store.rules('p1', 'rules')).toMatchObject({ version: 3, rows: [rule('C')] })
    expect((await store.rulesHistory('p1', 'rules')).map((saved) => saved.version)).toEqual([3, 1])

    // None readable: none answers, and a save goes after them.
    await (await placeOf()).damage.rulesVersion('p1', 'classification', 1)
    expect(await store.rules('p1', 'classification')).toBeUndefined()
    expect(await store.rulesHistory('p1', 'classification')).toEqual([])
    expect(await store.saveRules('p1', 'classification', 0, [], 'Cy')).toMatchObject({
      saved: { version: 2 },
    })
  })

  it('refuses a save of a version that is not the current one, saying who saved the current', async () => {
    const store = await openStore()
    await store.saveRules('p1', 'rules', 0, [rule('A')], 'Ann')
    await store.saveRules('p1', 'rules', 1, [rule('B')], 'Ann')
    const stale = await store.saveRules('p1', 'rules', 1, [rule('C')], 'Bob')
    expect(stale).toEqual({
      conflict: { version: 2, savedBy: 'Ann', savedAt: expect.any(String) },
    })
    // A version never saved is no more current than a stale one.
    expect(await store.saveRules('p1', 'rules', 7, [rule('C')], 'Bob')).toMatchObject({
      conflict: { version: 2 },
    })
    expect(await store.saveRules('p9', 'rules', 3, [rule('C')], 'Bob')).toEqual({
      conflict: undefined,
    })
    expect(await store.rules('p1', 'rules')).toMatchObject({ version: 2, rows: [rule('B')] })
  })

  it('lets exactly one of concurrent saves of the same version win, from two stores too', async () => {
    const one = await openStore()
    const two = await openStore()
    await one.saveRules('p1', 'rules', 0, [rule('A')], 'Ann')
    const saves = Array.from({ length: 8 }, (_, i) =>
      (i % 2 ? one : two).saveRules('p1', 'rules', 1, [rule(`R${i}`)], `user${i}`),
    )
    const outcomes = await Promise.all(saves)
    const won = outcomes.filter((o) => 'saved' in o)
    expect(won).toHaveLength(1)
    const winner = won[0] as { saved: { savedBy: string; rows: unknown[] } }
    expect(await two.rules('p1', 'rules')).toMatchObject({
      version: 2,
      savedBy: winner.saved.savedBy,
      rows: winner.saved.rows,
    })
    expect(await one.rulesHistory('p1', 'rules')).toHaveLength(2)
  })
})
