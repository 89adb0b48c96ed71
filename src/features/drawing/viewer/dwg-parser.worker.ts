/// <reference lib="webworker" />
import { AcDbBaseWorker } from '@mlightcad/data-model'
import { Dwg_File_Type, LibreDwg } from '@mlightcad/libredwg-web'
import { withoutText } from './without-text'

/**
 * The DWG reader of the drawing view, in a worker: LibreDWG (WebAssembly) reads the bytes into the
 * database the viewer's converter turns into entities, as @mlightcad/libredwg-converter's own
 * worker does, less the text (see without-text.ts). Built by Vite, so the WebAssembly file is one
 * of the app's hashed assets. LibreDWG's bindings compile their call stubs with `new Function`:
 * the server lets this one script do that (server/http/security.ts).
 */
class DwgParserWorker extends AcDbBaseWorker<ArrayBuffer, unknown> {
  async executeTask(data: ArrayBuffer) {
    const libredwg = await LibreDwg.create()
    const pointer = libredwg.dwg_read_data(data, Dwg_File_Type.DWG)
    if (pointer == null) throw new Error('This file could not be read as a DWG drawing.')
    try {
      const result = libredwg.convertEx(pointer)
      return { model: withoutText(result.database), data: result.stats }
    } finally {
      libredwg.dwg_free(pointer)
    }
  }
}

new DwgParserWorker()
