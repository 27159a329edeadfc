import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One config for the web build and for every test layer. The web app is built into dist/web and
// served by the dashboard's express server; tests run in projects so the unit layer can run alone.
// The dashboard answers only requests that name it (Host allow-list, same-origin check), so the dev server
// forwards to it as if the page had been served by the dashboard itself.
const DASHBOARD = 'http://127.0.0.1:7070';
const toDashboard = {
  target: DASHBOARD,
  changeOrigin: true,
  configure: (proxy: { on(event: string, fn: (req: { setHeader(k: string, v: string): void }) => void): void }) => {
    proxy.on('proxyReq', (req) => req.setHeader('origin', DASHBOARD));
    proxy.on('proxyReqWs', (req) => req.setHeader('origin', DASHBOARD));
  },
};

export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/socket.io': { ...toDashboard, ws: true }, '/api': toDashboard } },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'web/**/*.test.{ts,tsx}',
            'test/architecture/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: ['**/*.integration.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.integration.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/architecture/**'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
