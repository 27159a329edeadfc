// Ports controller-runtime pkg/builder/options.go: per-watch options (predicates, owner matching).
import type { Predicate } from '../predicate/predicate';

export interface ForOptions {
  predicates?: Predicate[];
  /** builder.OnlyMetadata: watch and cache the kind as PartialObjectMetadata. */
  onlyMetadata?: boolean;
}

export interface OwnsOptions {
  predicates?: Predicate[];
  /** Enqueue for every owner reference of the For type, not only the controller one (builder.MatchEveryOwner). */
  matchEveryOwner?: boolean;
  /** builder.OnlyMetadata */
  onlyMetadata?: boolean;
}

export interface WatchesOptions {
  predicates?: Predicate[];
  /** builder.OnlyMetadata (WatchesMetadata is watches(kind, handler, onlyMetadata)). */
  onlyMetadata?: boolean;
}

/** builder.WithPredicates */
export const withPredicates = (...predicates: Predicate[]): { predicates: Predicate[] } => ({ predicates });

/** builder.OnlyMetadata */
export const onlyMetadata: { onlyMetadata: true } = { onlyMetadata: true };

/** builder.MatchEveryOwner */
export const matchEveryOwner: OwnsOptions = { matchEveryOwner: true };
