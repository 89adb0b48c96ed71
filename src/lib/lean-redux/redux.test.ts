import { describe, expect, it, vi } from 'vitest'
import { combineReducers, createStore } from './redux'

type Count = { count: number }
const counter = (state: Count = { count: 0 }, action: { type: string }) =>
  action.type === 'add' ? { count: state.count + 1 } : state

describe('the lean Redux store react-arborist gets', () => {
  it('starts from the reducers’ initial state, or from the state given', () => {
    const reducer = combineReducers({ a: counter, b: counter })
    expect(createStore(reducer).getState()).toEqual({ a: { count: 0 }, b: { count: 0 } })
    const preloaded = { a: { count: 5 }, b: { count: 1 } }
    expect(createStore(reducer, preloaded).getState()).toBe(preloaded)
  })

  it('reduces each action and tells every listener, until it unsubscribes', () => {
    const store = createStore(combineReducers({ a: counter }))
    const listener = vi.fn()
    const unsubscribe = store.subscribe(listener)
    expect(store.dispatch({ type: 'add' })).toEqual({ type: 'add' })
    expect(store.getState()).toEqual({ a: { count: 1 } })
    expect(listener).toHaveBeenCalledTimes(1)
    unsubscribe()
    store.dispatch({ type: 'add' })
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('keeps the same state object when no reducer changed anything', () => {
    const store = createStore(
      combineReducers({ a: counter, nested: combineReducers({ b: counter }) }),
    )
    const before = store.getState()
    store.dispatch({ type: 'other' })
    expect(store.getState()).toBe(before)
    store.dispatch({ type: 'add' })
    expect(store.getState()).not.toBe(before)
  })

  it('calls the listeners there were when the action came', () => {
    const store = createStore(counter)
    const late = vi.fn()
    store.subscribe(() => store.subscribe(late))
    store.dispatch({ type: 'add' })
    expect(late).not.toHaveBeenCalled()
    store.dispatch({ type: 'add' })
    expect(late).toHaveBeenCalledTimes(1)
  })

  it('refuses an action dispatched from a reducer', () => {
    let store: ReturnType<typeof createStore<Count>> | undefined
    store = createStore((state: Count = { count: 0 }, action) => {
      if (action.type === 'nested') store?.dispatch({ type: 'add' })
      return state
    })
    expect(() => store?.dispatch({ type: 'nested' })).toThrow(/may not dispatch/)
  })
})
