// metav1.ListOptions as the API server reads and validates them (apimachinery
// pkg/apis/meta/internalversion/validation/validation.go, apiserver pkg/storage/continue.go).
import type { KubeObject } from '../../../shared/models/object';
import type { ResourceType } from './resources';
import { parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector } from './selectors';
import { forbidden, newBadRequest, newOptionsInvalid, notSupported, type FieldError } from './status-errors';

export interface ListOptions {
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  watch: boolean;
  sendInitialEvents?: boolean;
}

/** Go strconv.ParseBool. */
export function parseBool(v: string | null): boolean | undefined {
  if (v === null) return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False', ''].includes(v)) return false;
  throw newBadRequest(`invalid boolean value: ${v}`);
}

export function parseListOptions(q: URLSearchParams, forceWatch = false): ListOptions {
  const opts: ListOptions = {
    labelSelector: parseLabelSelector(q.get('labelSelector') ?? ''),
    fieldSelector: parseFieldSelector(q.get('fieldSelector') ?? ''),
    allowWatchBookmarks: parseBool(q.get('allowWatchBookmarks')) ?? false,
    watch: forceWatch || (parseBool(q.get('watch')) ?? false),
  };
  const limit = q.get('limit');
  if (limit !== null && limit !== '') {
    if (!/^-?\d+$/.test(limit)) throw newBadRequest(`invalid limit: ${limit}`);
    const n = Number(limit);
    if (n > 0) opts.limit = n;
  }
  const cont = q.get('continue');
  if (cont) opts.continue = cont;
  const rv = q.get('resourceVersion');
  if (rv !== null && rv !== '') opts.resourceVersion = rv;
  const ts = q.get('timeoutSeconds');
  if (ts !== null && ts !== '') {
    if (!/^\d+$/.test(ts)) throw newBadRequest(`invalid timeoutSeconds: ${ts}`);
    opts.timeoutSeconds = Number(ts);
  }
  const sie = parseBool(q.get('sendInitialEvents'));
  if (sie !== undefined && q.get('sendInitialEvents') !== '') opts.sendInitialEvents = sie;

  const errs: FieldError[] = [];
  const match = q.get('resourceVersionMatch');
  if (match) {
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    } else {
      opts.resourceVersionMatch = match;
      if (opts.watch) {
        if (opts.sendInitialEvents === undefined)
          errs.push(
            forbidden(
              'resourceVersionMatch',
              'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
            ),
          );
        else if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      } else {
        if (!opts.resourceVersion)
          errs.push(
            forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'),
          );
        if (opts.continue)
          errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
        if (match === 'Exact' && opts.resourceVersion === '0')
          errs.push(
            forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
          );
      }
    }
  }
  if (opts.sendInitialEvents !== undefined) {
    if (!opts.watch) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    else if (opts.resourceVersionMatch !== 'NotOlderThan') {
      errs.push(
        forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
      );
    }
  }
  if (opts.watch && opts.continue) errs.push(forbidden('continue', 'continue is forbidden for watch'));
  if (errs.length) throw newOptionsInvalid('ListOptions', errs);
  if (opts.resourceVersion !== undefined && !/^\d+$/.test(opts.resourceVersion)) {
    throw newBadRequest(
      `invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(opts.resourceVersion)}: invalid syntax`,
    );
  }
  if (opts.continue && opts.resourceVersion && opts.resourceVersion !== '0') {
    throw newBadRequest('specifying resource version is not allowed when using continue');
  }
  return opts;
}

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: number;
      start?: string;
    };
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string')
      throw new Error('bad token');
    return { rv: parsed.rv, start: parsed.start };
  } catch {
    throw newBadRequest(`invalid continue token: illegal base64 data or unrecognized token`);
  }
}

/** Field values an object exposes to field selectors; always metadata.name and metadata.namespace. */
export function fieldsOf(type: ResourceType, obj: KubeObject): Record<string, string> {
  return {
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
    ...(type.fieldLabels?.(obj) ?? {}),
  };
}

/** Rejects field selectors on fields the kind does not index (400, upstream wording). */
export function checkFieldSelector(type: ResourceType, sel: FieldSelector, sample: KubeObject): void {
  const known = Object.keys(fieldsOf(type, sample));
  for (const r of sel.requirements) {
    if (known.includes(r.field)) continue;
    // Custom resources word it like kinds with their own field-label table.
    if (!type.fieldLabels && !type.crdName) {
      throw newBadRequest(`"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
    throw newBadRequest(`field label not supported: ${r.field}`);
  }
}

export function selectorMatcher(type: ResourceType, opts: ListOptions): (o: KubeObject) => boolean {
  checkFieldSelector(type, opts.fieldSelector, { metadata: {} });
  return (o) => opts.labelSelector.matches(o.metadata.labels) && opts.fieldSelector.matches(fieldsOf(type, o));
}
