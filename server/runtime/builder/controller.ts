// Ports controller-runtime pkg/builder/controller.go: the fluent way to wire a controller into a manager —
// For (the reconciled type), Owns (owned types mapped to their controller owner), Watches (anything with
// a handler), global event filters, options and a name — validated in upstream's order on Build.
import type { Registry } from 'prom-client';
import type { GroupVersionKind } from '../../../shared/models/object';
import type { ControllerSource } from '../../../shared/protocol/events-controller';
import { Controller } from '../controller/controller';
import { withControllerConfig, type ControllerConfig, type ControllerOptions } from '../controller/options';
import { enqueueRequestForObject } from '../handler/enqueue';
import { enqueueRequestForOwner } from '../handler/enqueue-owner';
import type { EventHandler } from '../handler/eventhandler';
import type { Probe } from '../instrumentation/probe';
import type { Predicate } from '../predicate/predicate';
import type { Logger } from '../reconcile/logger';
import type { Reconciler } from '../reconcile/reconcile';
import { gvkId, groupKindString, partialObjectMetadata, toGVK, type KindDescriptor } from '../client/gvk';
import { kindSource, type KindCache } from '../source/kind';
import type { Source } from '../source/source';
import type { Clock } from '../util/clock';
import type { ForOptions, OwnsOptions, WatchesOptions } from './options';

/** What the builder needs from a manager (manager.Manager's relevant part). */
export interface BuilderManager {
  getCache(): KindCache;
  getControllerOptions(): ControllerConfig;
  add(r: Controller): unknown;
  isNamespaced(gvk: GroupVersionKind): Promise<boolean>;
  readonly clock: Clock;
  readonly probe: Probe;
  readonly registry: Registry;
  readonly log: Logger;
}

/** Controller options settable through withOptions (name and reconciler come from the builder). */
export type BuilderControllerOptions = Partial<Omit<ControllerOptions, 'name'>>;

interface Watch {
  kind: KindDescriptor;
  handler: EventHandler;
  predicates: Predicate[];
}

export class Builder {
  private forInput?: { kind: KindDescriptor; opts: ForOptions };
  private forCalledTwice = false;
  private readonly ownsInput: { kind: KindDescriptor; opts: OwnsOptions }[] = [];
  private readonly watchesInput: Watch[] = [];
  private readonly rawSources: Source[] = [];
  private readonly globalPredicates: Predicate[] = [];
  private ctrlOptions: BuilderControllerOptions = {};
  private name?: string;

  constructor(private readonly mgr: BuilderManager | undefined) {}

  /** The type this controller reconciles; events for it enqueue its own request. */
  for(kind: KindDescriptor, opts: ForOptions = {}): this {
    if (this.forInput) this.forCalledTwice = true;
    else this.forInput = { kind: opts.onlyMetadata ? partialObjectMetadata(kind) : kind, opts };
    return this;
  }

  /** A type the For type owns: its events enqueue the owner (the controller reference only, by default). */
  owns(kind: KindDescriptor, opts: OwnsOptions = {}): this {
    this.ownsInput.push({ kind: opts.onlyMetadata ? partialObjectMetadata(kind) : kind, opts });
    return this;
  }

  /** Any type with any handler. */
  watches(kind: KindDescriptor, handler: EventHandler, opts: WatchesOptions = {}): this {
    this.watchesInput.push({
      kind: opts.onlyMetadata ? partialObjectMetadata(kind) : kind,
      handler,
      predicates: opts.predicates ?? [],
    });
    return this;
  }

  /** A ready-made source; global event filters do not apply to it. */
  watchesRawSource(src: Source): this {
    this.rawSources.push(src);
    return this;
  }

  /** Predicates applied to every For/Owns/Watches event (before each watch's own). */
  withEventFilter(p: Predicate): this {
    this.globalPredicates.push(p);
    return this;
  }

  withOptions(opts: BuilderControllerOptions): this {
    this.ctrlOptions = opts;
    return this;
  }

  /** The controller's name (metrics, logs, the queue); default the lower-cased For kind. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** Build and discard the controller. */
  async complete(r: Reconciler): Promise<void> {
    await this.build(r);
  }

  async build(r: Reconciler | undefined): Promise<Controller> {
    if (!r) throw new Error('must provide a non-nil Reconciler');
    const mgr = this.mgr;
    if (!mgr) throw new Error('must provide a non-nil Manager');
    if (this.forCalledTwice) {
      throw new Error('For(...) should only be called once, could not assign multiple objects for reconciliation');
    }
    if (this.ctrlOptions.reconciler) {
      throw new Error('reconciler was set via WithOptions() and via Build() or Complete()');
    }
    const forGVK = this.forInput ? toGVK(this.forInput.kind) : undefined;
    const ctrl = this.doController(mgr, r, forGVK, this.sourceList());
    await this.doWatch(mgr, ctrl, forGVK);
    return ctrl;
  }

  private controllerName(forGVK: GroupVersionKind | undefined): string {
    if (this.name) return this.name;
    if (!forGVK) throw new Error('one of For() or Named() must be called');
    return forGVK.kind.toLowerCase();
  }

  /** What the controller is wired to, in the order doWatch adds it: reported so it shows before any event. */
  private sourceList(): ControllerSource[] {
    const kind = (k: KindDescriptor) => gvkId(toGVK(k));
    return [
      ...(this.forInput
        ? [{ role: 'for' as const, kind: kind(this.forInput.kind), handler: 'EnqueueRequestForObject' }]
        : []),
      ...this.ownsInput.map((o) => ({ role: 'owns' as const, kind: kind(o.kind), handler: 'EnqueueRequestForOwner' })),
      ...this.watchesInput.map((w) => ({ role: 'watches' as const, kind: kind(w.kind), handler: w.handler.name })),
      ...this.rawSources.map(() => ({ role: 'raw' as const })),
    ];
  }

  private doController(
    mgr: BuilderManager,
    r: Reconciler,
    forGVK: GroupVersionKind | undefined,
    sources: ControllerSource[],
  ): Controller {
    const name = this.controllerName(forGVK);
    const cfg = mgr.getControllerOptions();
    const opts: ControllerOptions = {
      clock: mgr.clock,
      probe: mgr.probe,
      registry: mgr.registry,
      log: mgr.log,
      ...this.ctrlOptions,
      name,
      reconciler: r,
      ...(forGVK ? { forKind: gvkId(forGVK) } : {}),
      sources,
    };
    if (!(opts.maxConcurrentReconciles && opts.maxConcurrentReconciles > 0) && forGVK) {
      const n = cfg.groupKindConcurrency?.[groupKindString(forGVK)];
      if (n && n > 0) opts.maxConcurrentReconciles = n;
    }
    return new Controller(withControllerConfig(opts, cfg));
  }

  private async doWatch(mgr: BuilderManager, ctrl: Controller, forGVK: GroupVersionKind | undefined): Promise<void> {
    const cache = mgr.getCache();
    const sources: Source[] = [];
    const kind = (k: KindDescriptor, handler: EventHandler, own: Predicate[]): Source =>
      kindSource({ cache, kind: k, handler, predicates: [...this.globalPredicates, ...own], clock: mgr.clock });

    if (this.forInput)
      sources.push(kind(this.forInput.kind, enqueueRequestForObject(), this.forInput.opts.predicates ?? []));
    if (this.ownsInput.length > 0 && !forGVK) throw new Error('Owns() can only be used together with For()');
    for (const own of this.ownsInput) {
      const owner = forGVK as GroupVersionKind;
      const handler = enqueueRequestForOwner({
        ownerType: owner,
        onlyControllerOwner: !own.opts.matchEveryOwner,
        isNamespaced: (gk) => mgr.isNamespaced({ ...gk, version: owner.version }),
      });
      sources.push(kind(own.kind, handler, own.opts.predicates ?? []));
    }
    for (const w of this.watchesInput) sources.push(kind(w.kind, w.handler, w.predicates));
    sources.push(...this.rawSources);
    if (sources.length === 0) {
      throw new Error(
        'there are no watches configured, controller will never get triggered. Use For(), Owns(), Watches() or WatchesRawSource() to set them up',
      );
    }
    for (const s of sources) await ctrl.watch(s);
    mgr.add(ctrl);
  }
}

/** builder.ControllerManagedBy */
export function newControllerManagedBy(mgr: BuilderManager | undefined): Builder {
  return new Builder(mgr);
}
