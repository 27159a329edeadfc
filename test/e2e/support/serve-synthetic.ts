// Serves the built dashboard (dist/web) through the real transport fed by the synthetic runtime, for UI work
// without a cluster: `npx vite build && npx tsx test/e2e/support/serve-synthetic.ts [port]`.
import { resolve } from 'node:path';
import { startSyntheticDashboard } from './synthetic-dashboard';

const port = Number(process.argv[2] ?? 0);
const s = await startSyntheticDashboard({ staticDir: resolve('dist/web'), port });
console.log(`dashboard (synthetic events): ${s.url}`);
