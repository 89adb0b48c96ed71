#!/usr/bin/env node
// The `boq` command (package.json's bin and `npm run boq`): the command line of cli.ts, in this process.
import { main } from './cli.ts'

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
})
