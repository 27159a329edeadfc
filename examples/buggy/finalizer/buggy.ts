// Removes its finalizer only after deleting a child, never when the child is already gone.
import { setupFinalizer } from './controller';

export { scenario } from './scenario';
export default setupFinalizer(false);
