// Kind-specific validation of built-ins that clients trip over (kubernetes pkg/apis/core/validation):
// ConfigMap and Secret data keys.
import type { KubeObject } from '../../../shared/models/object';
import { invalid, type FieldError } from './status-errors';

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
