// Kind-specific validation of built-ins that clients trip over (kubernetes pkg/apis/core/validation,
// pkg/apis/apps/validation): ConfigMap and Secret data keys, workload selectors against their templates.
import type { KubeObject } from '../../../shared/models/object';
import { labelSelectorFromObject } from './selectors';
import { invalid, required, type FieldError } from './status-errors';
import { isObject } from './util';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** ValidateConfigMapKey / IsConfigMapKey over `data` (and ConfigMap `binaryData`). */
export function validateConfigData(kind: 'ConfigMap' | 'Secret'): (o: KubeObject) => FieldError[] {
  const fields = kind === 'ConfigMap' ? ['data', 'binaryData'] : ['data'];
  return (o) => {
    const errs: FieldError[] = [];
    for (const f of fields) {
      const data = o[f];
      if (!data || typeof data !== 'object') continue;
      for (const key of Object.keys(data)) {
        if (key.length > 253) errs.push(invalid(`${f}[${key}]`, key, 'must be no more than 253 characters'));
        else if (!CONFIG_KEY.test(key)) errs.push(invalid(`${f}[${key}]`, key, CONFIG_KEY_MESSAGE));
        else if (key === '.' || key === '..' || key.startsWith('..'))
          errs.push(
            invalid(
              `${f}[${key}]`,
              key,
              key === '.' ? "must not be '.'" : key === '..' ? "must not be '..'" : "must not start with '..'",
            ),
          );
      }
    }
    return errs;
  };
}

/** Deployments, ReplicaSets, StatefulSets, DaemonSets: a non-empty spec.selector that selects the template. */
export function validateWorkloadSelector(kind: string): (o: KubeObject) => FieldError[] {
  return (o) => {
    const spec = isObject(o.spec) ? o.spec : {};
    const template = isObject(spec.template) ? spec.template : {};
    const meta = isObject(template.metadata) ? template.metadata : {};
    const labels = (isObject(meta.labels) ? meta.labels : {}) as Record<string, string>;
    const sel = spec.selector;
    const errs: FieldError[] = [];
    if (!isObject(sel)) errs.push(required('spec.selector'));
    else if (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions as unknown[] | undefined)?.length) {
      errs.push(invalid('spec.selector', sel, `empty selector is invalid for ${kind.toLowerCase()}`));
      return errs;
    }
    const matches =
      isObject(sel) && labelSelectorFromObject(sel as Parameters<typeof labelSelectorFromObject>[0]).matches(labels);
    if (!matches)
      errs.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    return errs;
  };
}
