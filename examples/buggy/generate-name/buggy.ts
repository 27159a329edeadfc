// Records its generateName child on the parent only after creating it: a crash in between gives two children.
import { setupGenerateName } from './controller';

export { scenario } from './scenario';
export default setupGenerateName(false);
