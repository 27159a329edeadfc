// The twin: removes its finalizer once no child is left, however it went.
import { setupFinalizer } from './controller';

export { scenario } from './scenario';
export default setupFinalizer(true);
