// Deletes a claim whenever its cache says the claim's widget is gone, stale or not.
import { setupStaleParent } from './controller';

export { scenario } from './scenario';
export default setupStaleParent(false);
