// Ports apimachinery pkg/api/meta/conditions.go: the helpers controllers use on status.conditions
// (metav1.Condition). A condition's lastTransitionTime moves only when its status flips, so a controller that
// sets the same conditions again changes nothing and its status write is a no-op.

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  /** RFC 3339, seconds precision (metav1.Time). */
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** metav1.Now() as it serializes: RFC 3339 with whole seconds. */
export function metav1Now(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * SetStatusCondition: adds the condition, or updates the one of the same type in place. lastTransitionTime
 * is the given one (or now) when the condition is new or its status changes, and is kept otherwise.
 * Returns true when anything changed.
 */
export function setStatusCondition(
  conditions: Condition[],
  next: Condition,
  now: () => Date = () => new Date(),
): boolean {
  const existing = findStatusCondition(conditions, next.type);
  if (!existing) {
    conditions.push({ ...next, lastTransitionTime: next.lastTransitionTime || metav1Now(now()) });
    return true;
  }
  let changed = false;
  if (existing.status !== next.status) {
    existing.status = next.status;
    existing.lastTransitionTime = next.lastTransitionTime || metav1Now(now());
    changed = true;
  }
  if (existing.reason !== next.reason) {
    existing.reason = next.reason;
    changed = true;
  }
  if (existing.message !== next.message) {
    existing.message = next.message;
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (next.observedGeneration ?? 0)) {
    existing.observedGeneration = next.observedGeneration;
    changed = true;
  }
  return changed;
}

/** RemoveStatusCondition: true when a condition of that type was there. */
export function removeStatusCondition(conditions: Condition[], conditionType: string): boolean {
  const i = conditions.findIndex((c) => c.type === conditionType);
  if (i < 0) return false;
  conditions.splice(i, 1);
  return true;
}

/** FindStatusCondition: the condition of that type (the stored object, so callers may edit it), or undefined. */
export function findStatusCondition(conditions: readonly Condition[], conditionType: string): Condition | undefined {
  return conditions.find((c) => c.type === conditionType);
}

export function isStatusConditionTrue(conditions: readonly Condition[], conditionType: string): boolean {
  return isStatusConditionPresentAndEqual(conditions, conditionType, 'True');
}

export function isStatusConditionFalse(conditions: readonly Condition[], conditionType: string): boolean {
  return isStatusConditionPresentAndEqual(conditions, conditionType, 'False');
}

export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[],
  conditionType: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, conditionType)?.status === status;
}
