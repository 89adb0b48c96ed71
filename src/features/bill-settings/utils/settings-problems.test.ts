import { describe, expect, it } from 'vitest'
import { checkForm, formOf, newAdjustment, newDecimals, settingsOf } from './settings-form'
import { placeProblems } from './settings-problems'

const form = formOf({
  currency: 'EUR',
  decimals: { m: 2, nr: 0 },
  adjustments: [
    { kind: 'percent', name: 'Preliminaries (site): setup', percent: 10 },
    { kind: 'item', name: 'Skip hire', quantity: 2, unit: 'week', rate: 150 },
  ],
})
const [metres, counts] = form.decimals
const [preliminaries, skip] = form.adjustments

describe('placing problem lines by the field they name', () => {
  it('places the server’s lines, whatever the adjustment’s name holds', () => {
    const placed = placeProblems(
      [
        'Currency: "EU" is not an ISO 4217 currency code (EUR, USD, GBP…).',
        'Adjustment 1 (Preliminaries (site): setup), percent: must be from -100 to 1000.',
        'Adjustment 2 (Skip hire), unit: must be at most 20 characters.',
        'Adjustment 2 (Skip hire): must be one of percent, sum, item, tax.',
        'Decimals of "nr": must be a whole number.',
        'Decimals of "m": a unit must be at most 20 characters.',
        'Adjustments: taxes come last: a tax is of the total before tax.',
        'Title: must be at most 200 characters.',
      ],
      form,
    )
    expect(placed.general).toEqual([])
    expect(placed.placed.map(({ key, label, message }) => [key, label, message])).toEqual([
      ['currency', 'Currency', '"EU" is not an ISO 4217 currency code (EUR, USD, GBP…).'],
      [
        `adjustment-${preliminaries?.id}-percent`,
        'Adjustment 1 (Preliminaries (site): setup), percent',
        'Must be from -100 to 1000.',
      ],
      [
        `adjustment-${skip?.id}-unit`,
        'Adjustment 2 (Skip hire), unit',
        'Must be at most 20 characters.',
      ],
      [
        `adjustment-${skip?.id}-kind`,
        'Adjustment 2 (Skip hire)',
        'Must be one of percent, sum, item, tax.',
      ],
      [`decimals-${counts?.id}-decimals`, 'Decimals of nr', 'Must be a whole number.'],
      [`decimals-${metres?.id}-unit`, 'Decimals of m', 'A unit must be at most 20 characters.'],
      ['adjustments', 'Adjustments', 'Taxes come last: a tax is of the total before tax.'],
      ['title', 'Title', 'Must be at most 200 characters.'],
    ])
  })

  it('keeps a line that names no field of the page whole, as a sentence', () => {
    const placed = placeProblems(
      [
        'Bill settings: must be a JSON object',
        'Adjustment 9 (Gone): must be a number.',
        'Colour: is not a setting.',
      ],
      form,
    )
    expect(placed.placed).toEqual([])
    expect(placed.general).toEqual([
      'Bill settings: must be a JSON object.',
      'Adjustment 9 (Gone): must be a number.',
      'Colour: is not a setting.',
    ])
  })
})

describe('the page’s own check', () => {
  it('sends what the fields say: blank texts left out, figures as numbers, only the kind’s own fields', () => {
    const edited = {
      ...form,
      title: '  ',
      client: ' Acme ',
      adjustments: [{ ...newAdjustment('sum'), name: 'Lift', amount: '5000', percent: '12' }],
    }
    expect(checkForm(edited)).toEqual({
      settings: {
        currency: 'EUR',
        client: 'Acme',
        decimals: { m: 2, nr: 0 },
        adjustments: [{ kind: 'sum', name: 'Lift', amount: 5000 }],
      },
    })
  })

  it('names a unit with no name, a unit named twice and a blank figure by their rows', () => {
    const unnamed = newDecimals()
    const again = { ...newDecimals(), unit: 'm' }
    const blank = { ...newAdjustment('tax'), percent: '' }
    const edited = { ...form, decimals: [...form.decimals, unnamed, again], adjustments: [blank] }
    const checked = checkForm(edited)
    if (!('problems' in checked)) throw new Error('checked')
    const placed = placeProblems(checked.problems, edited)
    expect(placed.general).toEqual([])
    expect(placed.placed.map(({ key, message }) => [key, message])).toEqual([
      [`decimals-${again.id}-unit`, 'Named twice.'],
      [`decimals-${unnamed.id}-unit`, 'A unit must be named.'],
      [`adjustment-${blank.id}-percent`, 'Must be a number.'],
    ])
  })

  it('reads saved settings back as they were saved', () => {
    expect(settingsOf(form)).toEqual({
      currency: 'EUR',
      decimals: { m: 2, nr: 0 },
      adjustments: [
        { kind: 'percent', name: 'Preliminaries (site): setup', percent: 10 },
        { kind: 'item', name: 'Skip hire', quantity: 2, unit: 'week', rate: 150 },
      ],
    })
  })
})
