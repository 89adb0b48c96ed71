// Stands in for redux in the build (vite.config.ts resolve.alias): react-arborist keeps its state
// in a Redux store and uses only createStore and combineReducers, which are this small without
// Redux's checks of misuse and their messages (about 0.7 kB gzip).

type Action = { type: string }
type Reducer<S = unknown> = (state: S | undefined, action: Action) => S

export interface Store<S> {
  getState(): S
  dispatch<A extends Action>(action: A): A
  subscribe(listener: () => void): () => void
}

/** Redux's own first action, which lets each reducer put in its initial state. */
const INIT: Action = { type: '@@redux/INIT' }

export function createStore<S>(reducer: Reducer<S>, preloadedState?: S): Store<S> {
  let state = preloadedState as S
  let dispatching = false
  const listeners = new Set<() => void>()
  const store: Store<S> = {
    getState: () => state,
    dispatch(action) {
      if (dispatching) throw new Error('Reducers may not dispatch actions.')
      dispatching = true
      try {
        state = reducer(state, action)
      } finally {
        dispatching = false
      }
      // The listeners as they were when the action came: one that subscribes meanwhile waits.
      for (const listener of [...listeners]) listener()
      return action
    },
    subscribe(listener) {
      // A listener subscribed twice is called twice, as in Redux.
      const entry = () => listener()
      listeners.add(entry)
      return () => listeners.delete(entry)
    },
  }
  store.dispatch(INIT)
  return store
}

export function combineReducers<S extends Record<string, unknown>>(
  reducers: {
    [K in keyof S]: Reducer<S[K]>
  },
): Reducer<S> {
  const keys = Object.keys(reducers) as (keyof S)[]
  return (state, action) => {
    const previous = (state ?? {}) as S
    const next = {} as S
    // A state with other keys than the reducers' is replaced too, as Redux does.
    let changed = state === undefined || Object.keys(previous).length !== keys.length
    for (const key of keys) {
      next[key] = reducers[key](previous[key], action)
      changed ||= next[key] !== previous[key]
    }
    return changed ? next : previous
  }
}
