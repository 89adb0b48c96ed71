/** An address in LibreDWG's WebAssembly memory: an object, a struct, a field. */
export type Ptr = number
