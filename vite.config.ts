import { fileURLToPath } from 'node:url'
import { constants as zlibConstants } from 'node:zlib'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { defineConfig } from 'vitest/config'
import { replaceInPackage } from './build/replace-in-package.ts'
import { screenChunks } from './build/screen-chunks.ts'
import { withoutKeptNames } from './build/without-kept-names.ts'

/** Absolute path of a file under src/. */
const local = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

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
    withoutKeptNames('@radix-ui'),
    replaceInPackage('react-arborist', [
      // The file tree never drags: react-arborist's own drag-and-drop pieces are no-ops too.
      {
        find: /^\.\.?\/(dnd\/(drag-hook|drop-hook|outer-drop-hook)|(components\/)?(cursor|default-cursor|drag-preview-container|default-drag-preview))$/,
        replacement: local('lib/no-dnd/react-arborist-dnd.ts'),
      },
      // The file tree is controlled: the tree that edits its own initialData is left out.
      {
        find: /^\.\/use-simple-tree$/,
        replacement: local('lib/no-uncontrolled-tree/use-simple-tree.ts'),
      },
      // The file tree's rows have one height: react-window's list of varying heights is left out.
      { find: /^react-window$/, replacement: local('lib/no-variable-rows/react-window.ts') },
      // The file tree renders its own rows and nodes.
      {
        find: /^\.\.\/components\/default-(row|node)$/,
        replacement: local('lib/own-rows/react-arborist-defaults.ts'),
      },
    ]),
    // The HTTP client never retries and never reports progress (src/lib/api-client.ts).
    replaceInPackage('ky', [
      { find: /^\.\/retry-timing\.js$/, replacement: local('lib/no-retries/ky-retry-timing.ts') },
      { find: /^\.\.\/utils\/body\.js$/, replacement: local('lib/no-progress/ky-body.ts') },
    ]),
    // No mutation goes through TanStack Query, and no query pages.
    replaceInPackage('@tanstack/query-core', [
      { find: /^\.\/mutation\.js$/, replacement: local('lib/no-mutations/query-mutation.ts') },
      {
        find: /^\.\/infiniteQueryBehavior\.js$/,
        replacement: local('lib/no-infinite-queries/query-infinite.ts'),
      },
    ]),
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
  resolve: {
    alias: [
      // The file tree never drags: react-arborist's react-dnd is replaced by no-op stand-ins
      // (src/lib/no-dnd), which keeps about 15 kB gzip off the file-selection screen.
      {
        find: /^react-dnd-html5-backend$/,
        replacement: local('lib/no-dnd/react-dnd-html5-backend.ts'),
      },
      { find: /^react-dnd$/, replacement: local('lib/no-dnd/react-dnd.ts') },
      // The user menu's popover is not modal: Radix's scroll lock and aria-hidden, which only a
      // modal popover uses, are replaced by stand-ins that fail loudly (about 4 kB gzip).
      { find: /^react-remove-scroll$/, replacement: local('lib/no-modal/react-remove-scroll.ts') },
      { find: /^aria-hidden$/, replacement: local('lib/no-modal/aria-hidden.ts') },
      // React 19 has useSyncExternalStore: the shim for older Reacts that TanStack Store and
      // react-arborist import is left out.
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector',
      },
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: local('lib/react-19/use-sync-external-store-shim.ts'),
      },
    ],
  },
  build: {
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'build/**/*.test.ts'],
          globalSetup: ['server/testing/postgres-global-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts', 'server/testing/postgres-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
