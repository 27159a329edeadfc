// A read that answers "not there" with undefined, as every example here needs for its own objects.
import { isNotFound, type KubeObject, type ObjectKey, type ObjectType, type Reader } from 'controller-scope';

export async function getOrNone<T extends KubeObject>(
  r: Reader,
  type: ObjectType,
  key: ObjectKey,
): Promise<T | undefined> {
  try {
    return await r.get<T>(type, key);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
