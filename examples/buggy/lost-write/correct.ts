// The twin: returns the error, and the write is retried.
import { setupLostWrite } from './controller';

export { scenario } from './scenario';
export default setupLostWrite(true);
