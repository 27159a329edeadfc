// The twin: asks the API server before deleting.
import { setupStaleParent } from './controller';

export { scenario } from './scenario';
export default setupStaleParent(true);
