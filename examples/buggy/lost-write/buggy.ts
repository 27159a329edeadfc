// Swallows a failed write: no error, no requeue, and the change is lost.
import { setupLostWrite } from './controller';

export { scenario } from './scenario';
export default setupLostWrite(false);
