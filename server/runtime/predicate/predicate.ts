// Ports controller-runtime pkg/predicate/predicate.go: filters between a source and an event handler.
// Each predicate carries a name so the UI can say which one dropped an event.
import type { KubeObject } from '../../../shared/models/object';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../event/event';
import { labelSelectorAsSelector, type LabelSelector, type Selector } from './label-selector';

export interface Predicate<T extends KubeObject = KubeObject> {
  readonly name: string;
  create(e: CreateEvent<T>): boolean;
  update(e: UpdateEvent<T>): boolean;
  delete(e: DeleteEvent<T>): boolean;
  generic(e: GenericEvent<T>): boolean;
}

/** predicate.Funcs: any function left out lets the event through. */
export interface PredicateFuncs<T extends KubeObject = KubeObject> {
  name?: string;
  create?: (e: CreateEvent<T>) => boolean;
  update?: (e: UpdateEvent<T>) => boolean;
  delete?: (e: DeleteEvent<T>) => boolean;
  generic?: (e: GenericEvent<T>) => boolean;
}

export function predicateFuncs<T extends KubeObject = KubeObject>(f: PredicateFuncs<T>): Predicate<T> {
  return {
    name: f.name ?? 'Funcs',
    create: (e) => (f.create ? f.create(e) : true),
    update: (e) => (f.update ? f.update(e) : true),
    delete: (e) => (f.delete ? f.delete(e) : true),
    generic: (e) => (f.generic ? f.generic(e) : true),
  };
}

/** predicate.NewPredicateFuncs: one filter on the object (the new object for updates). */
export function newPredicateFuncs<T extends KubeObject = KubeObject>(
  filter: (obj: T) => boolean,
  name = 'PredicateFuncs',
): Predicate<T> {
  const apply = (obj: T | undefined): boolean => obj !== undefined && filter(obj);
  return {
    name,
    create: (e) => apply(e.object),
    update: (e) => apply(e.objectNew),
    delete: (e) => apply(e.object),
    generic: (e) => apply(e.object),
  };
}

/** Only the update check differs between the "changed" predicates; everything else passes. */
function updateOnly(name: string, changed: (oldObj: KubeObject, newObj: KubeObject) => boolean): Predicate {
  return predicateFuncs({
    name,
    update: (e) => (e.objectOld && e.objectNew ? changed(e.objectOld, e.objectNew) : false),
  });
}

/** predicate.ResourceVersionChangedPredicate: drops resyncs (updates with an unchanged RV). */
export const resourceVersionChangedPredicate = (): Predicate =>
  updateOnly('ResourceVersionChangedPredicate', (o, n) => o.metadata.resourceVersion !== n.metadata.resourceVersion);

/** predicate.GenerationChangedPredicate: drops status/metadata-only updates (generation unchanged). */
export const generationChangedPredicate = (): Predicate =>
  updateOnly('GenerationChangedPredicate', (o, n) => o.metadata.generation !== n.metadata.generation);

/** Map equality where a missing map and an empty map are the same (reflect.DeepEqual on labels upstream). */
function mapsEqual(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(b ?? {}, k) && a?.[k] === b?.[k]);
}

export const annotationChangedPredicate = (): Predicate =>
  updateOnly('AnnotationChangedPredicate', (o, n) => !mapsEqual(o.metadata.annotations, n.metadata.annotations));

export const labelChangedPredicate = (): Predicate =>
  updateOnly('LabelChangedPredicate', (o, n) => !mapsEqual(o.metadata.labels, n.metadata.labels));

/** predicate.LabelSelectorPredicate: throws on an invalid selector (upstream returns the error). */
export function labelSelectorPredicate(selector: LabelSelector | Selector): Predicate {
  const sel: Selector = 'matches' in selector ? selector : labelSelectorAsSelector(selector);
  return newPredicateFuncs((obj) => sel.matches(obj.metadata.labels), `LabelSelectorPredicate(${sel.toString()})`);
}

type EventOf<K extends keyof Omit<Predicate, 'name'>> = Parameters<Predicate[K]>[0];

function combine(name: string, ps: Predicate[], pick: (results: (() => boolean)[]) => boolean): Predicate {
  const over =
    <K extends 'create' | 'update' | 'delete' | 'generic'>(k: K) =>
    (e: EventOf<K>): boolean =>
      pick(ps.map((p) => () => (p[k] as (ev: EventOf<K>) => boolean)(e)));
  return { name, create: over('create'), update: over('update'), delete: over('delete'), generic: over('generic') };
}

const names = (ps: Predicate[]): string => ps.map((p) => p.name).join(', ');

/** predicate.And: all must pass (short-circuits; empty → true). */
export const and = (...ps: Predicate[]): Predicate => combine(`And(${names(ps)})`, ps, (rs) => rs.every((r) => r()));

/** predicate.Or: any may pass (short-circuits; empty → false). */
export const or = (...ps: Predicate[]): Predicate => combine(`Or(${names(ps)})`, ps, (rs) => rs.some((r) => r()));

/** predicate.Not */
export function not(p: Predicate): Predicate {
  return {
    name: `Not(${p.name})`,
    create: (e) => !p.create(e),
    update: (e) => !p.update(e),
    delete: (e) => !p.delete(e),
    generic: (e) => !p.generic(e),
  };
}
