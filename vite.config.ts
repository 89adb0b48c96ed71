import { constants as zlibConstants } from 'node:zlib'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { defineConfig } from 'vitest/config'
import { screenChunks } from './build/screen-chunks.ts'
import LongestFirst from './scripts/test-sequencer.ts'

// The API server the dev server proxies to (`npm run dev` starts both).
const apiTarget = process.env.BOQ_DEV_API ?? 'http://127.0.0.1:3001'

export default defineConfig({
  plugins: [
    // The router plugin must come before React's: it generates src/route-tree.gen.ts.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      generatedRouteTree: './src/route-tree.gen.ts',
    }),
    react(),
    // What every screen loads comes as one chunk, and what only the signed-in screens load as
    // another (about 2.7 kB gzip less).
    screenChunks(),
    // Each built file also as .gz and .br beside it, which the server sends to a browser that asks
    // (server/http/static-files.ts). Brotli at 9, not 11: 11 takes about 20 s more per build for
    // about 15% less (LibreDWG's WebAssembly: 1.30 MB at 9, 1.08 MB at 11, 2.17 MB gzip).
    compression({
      include: /\.(html|css|js|mjs|json|svg|wasm)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }),
      ],
      logLevel: 'silent',
    }),
  ],
  build: {
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  test: {
    // Most server and browser test files wait (on child processes, PostgreSQL, Chromium), so more
    // files run at once than the machine has cores. The projects share one queue (projects with
    // a maxWorkers of their own would run one after the other), longest files first.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          // Beside the other files' tests a render can take seconds: a limit that only stops a hang.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'contract/**/*.test.ts',
            'build/**/*.test.ts',
            'dev/**/*.test.ts',
          ],
          globalSetup: ['server/testing/postgres-global-setup.ts'],
          // Beside the other files' tests, on a machine others use too, a test that reads
          // drawings or starts processes can take many times its usual time: limits that only
          // stop a hang.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts', 'server/testing/postgres-global-setup.ts'],
          // Files run side by side, each with its own server (port 0, its own data folder) and
          // Chromium: generous limits that only stop a hang.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
