// Ports client-go tools/pager/pager.go (ListPager): chunked LIST with limit/continue, and a single
// fallback to a full list when a continuation page has expired.
import type { KubeList, KubeObject } from '../../../shared/models/object';
import { isResourceExpired } from '../util/errors';
import type { ListerWatcher, ListOptions } from './lister-watcher';

export interface ListPagerOptions<T extends KubeObject> {
  lister: Pick<ListerWatcher<T>, 'list'>;
  /** Items per page; 0 lists everything in one request. Default ListPager.defaultPageSize (500). */
  pageSize?: number;
  /** On 410 for a continuation page, retry once with one full list. Default true. */
  fullListIfExpired?: boolean;
}

export interface PagedListResult<T extends KubeObject> {
  list: KubeList<T>;
  /** True when the server split the answer into more than one page. */
  paginatedResult: boolean;
}

export class ListPager<T extends KubeObject = KubeObject> {
  /** pager.defaultPageSize. */
  static readonly defaultPageSize = 500;
  private readonly lister: Pick<ListerWatcher<T>, 'list'>;
  readonly pageSize: number;
  readonly fullListIfExpired: boolean;

  constructor(opts: ListPagerOptions<T>) {
    this.lister = opts.lister;
    this.pageSize = opts.pageSize ?? ListPager.defaultPageSize;
    this.fullListIfExpired = opts.fullListIfExpired ?? true;
  }

  /** Fetches every page and joins them; the list metadata is the last page's (its resourceVersion). */
  async list(options: ListOptions, signal?: AbortSignal): Promise<PagedListResult<T>> {
    const first: ListOptions = { ...options };
    if (!first.limit) first.limit = this.pageSize || undefined;
    let opts = first;
    let acc: KubeList<T> | undefined;
    let paginatedResult = false;
    for (;;) {
      signal?.throwIfAborted();
      let page: KubeList<T>;
      try {
        page = await this.lister.list(opts, signal);
      } catch (err) {
        // Only a continuation page may fall back: an error on the first page is the caller's to handle.
        if (!this.fullListIfExpired || !opts.continue || !isResourceExpired(err)) throw err;
        const full = await this.lister.list({ ...options, limit: undefined, continue: undefined }, signal);
        return { list: full, paginatedResult };
      }
      const more = page.metadata?.continue;
      if (!acc) {
        if (!more) return { list: page, paginatedResult: false };
        acc = { ...page, items: [...page.items] };
      } else {
        acc.items.push(...page.items);
        acc.metadata = page.metadata;
      }
      paginatedResult = true;
      if (!more) {
        acc.metadata = { ...acc.metadata, continue: undefined };
        return { list: acc, paginatedResult };
      }
      // Later pages carry only the continue token; the server pins them to the first page's snapshot.
      opts = {
        ...options,
        limit: first.limit,
        continue: more,
        resourceVersion: undefined,
        resourceVersionMatch: undefined,
      };
    }
  }
}
