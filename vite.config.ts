import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One config for the web build and for every test layer. The web app is built into dist/web and
// served by the dashboard's express server; tests run in projects so the unit layer can run alone.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/socket.io': { target: 'http://127.0.0.1:7070', ws: true }, '/api': 'http://127.0.0.1:7070' } },
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
