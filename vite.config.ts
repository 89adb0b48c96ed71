import { fileURLToPath } from 'node:url'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

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
  ],
  resolve: {
    // The file tree never drags: react-arborist's react-dnd is replaced by no-op stand-ins
    // (src/lib/no-dnd), which keeps about 15 kB gzip off the file-selection screen.
    alias: {
      'react-dnd-html5-backend': fileURLToPath(
        new URL('./src/lib/no-dnd/react-dnd-html5-backend.ts', import.meta.url),
      ),
      'react-dnd': fileURLToPath(new URL('./src/lib/no-dnd/react-dnd.ts', import.meta.url)),
    },
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
          include: ['server/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
