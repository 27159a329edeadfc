// Counts on seeing phase Pending before Ready; a coalesced watch skips it.
import { setupIntermediate } from './controller';

export { scenario } from './scenario';
export default setupIntermediate(false);
