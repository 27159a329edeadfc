// The twin: acts on whatever phase it sees.
import { setupIntermediate } from './controller';

export { scenario } from './scenario';
export default setupIntermediate(true);
