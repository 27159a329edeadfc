// Ports controller-runtime pkg/builder/options.go: per-watch options (predicates, owner matching).
import type { Predicate } from '../predicate/predicate';

export interface ForOptions {
  predicates?: Predicate[];
}

export interface OwnsOptions {
  predicates?: Predicate[];
  /** Enqueue for every owner reference of the For type, not only the controller one (builder.MatchEveryOwner). */
  matchEveryOwner?: boolean;
}

export interface WatchesOptions {
  predicates?: Predicate[];
}

/** builder.WithPredicates */
export const withPredicates = (...predicates: Predicate[]): { predicates: Predicate[] } => ({ predicates });

/** builder.MatchEveryOwner */
export const matchEveryOwner: OwnsOptions = { matchEveryOwner: true };
