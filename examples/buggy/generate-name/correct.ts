// The twin: adopts a child it already made before creating one.
import { setupGenerateName } from './controller';

export { scenario } from './scenario';
export default setupGenerateName(true);
