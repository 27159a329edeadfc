// Request validation the client meets in practice: body/URL mismatches, immutable fields, malformed patch
// bodies, option conflicts and ObjectMeta rules (spec §5, §6).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { rawPatch } from '../../../server/runtime/client';
import { apiError, CONFIGMAPS_GVR, configMap, newNamespace, statusOf } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

export function validationCases(target: GetTarget, _targetName: TargetName): void {
  describe('request validation', () => {
    it('refuses a body whose apiVersion does not match the endpoint with 400', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(
        t.http.request({
          method: 'POST',
          path: `/api/v1/namespaces/${ns}/configmaps`,
          body: { ...configMap(ns, 'x'), apiVersion: 'apps/v1' },
        }),
      );
      // The wording differs (kube-apiserver's decoder names its scheme); code, reason and the version agree.
      expect([err.code, err.reason]).toEqual([400, 'BadRequest']);
      expect(err.message).toContain('apps/v1');
    });

    it('treats a uid in a PUT body as a precondition (409) and a uid change by PATCH as invalid (422)', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'fixed'));
      const uid = await apiError(
        t.client.update({ ...cm, metadata: { ...cm.metadata, uid: '00000000-0000-4000-8000-000000000000' } }),
      );
      expect([uid.code, uid.reason]).toEqual([409, 'Conflict']);
      expect(uid.message).toBe(
        `Operation cannot be fulfilled on configmaps "fixed": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${ns}/fixed, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-4000-8000-000000000000, UID in object meta: ${cm.metadata.uid}`,
      );
      // PATCH has no uid precondition: changing the uid there is a validation error.
      const patched = await apiError(
        t.client.patch(cm, rawPatch('merge', { metadata: { uid: '00000000-0000-4000-8000-000000000000' } })),
      );
      expect([patched.code, patched.reason]).toEqual([422, 'Invalid']);
      expect(patched.message).toContain(
        'metadata.uid: Invalid value: "00000000-0000-4000-8000-000000000000": field is immutable',
      );
    });

    it('answers malformed patch bodies with 400 and a non-array JSON patch with 400', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'p'));
      const badJson = await apiError(t.client.patch(cm, rawPatch('merge', '{not json')));
      expect([badJson.code, badJson.reason]).toEqual([400, 'BadRequest']);
      const notArray = await apiError(t.client.patch(cm, rawPatch('json', { op: 'add' })));
      expect([notArray.code, notArray.reason]).toEqual([400, 'BadRequest']);
    });

    it('refuses force on a non-apply patch and conflicting delete options with 422', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'opts'));
      const force = await apiError(t.client.patch(cm, rawPatch('merge', { data: { a: 'b' } }), { force: true }));
      expect([force.code, force.reason]).toEqual([422, 'Invalid']);
      expect(force.message).toContain('force: Forbidden: may not be specified for non-apply patch');
      const both = await apiError(
        t.http.request({
          method: 'DELETE',
          path: `/api/v1/namespaces/${ns}/configmaps/opts`,
          body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Background' },
        }),
      );
      expect([both.code, both.reason]).toEqual([422, 'Invalid']);
      expect(both.message).toMatch(/^DeleteOptions\.meta\.k8s\.io "" is invalid: /);
    });

    it('validates label values, owner references and generateName length', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const label = await apiError(t.client.create(configMap(ns, 'lbl', { labels: { ok: 'not valid!' } })));
      expect([label.code, label.reason]).toEqual([422, 'Invalid']);
      expect(label.message).toBe(
        `ConfigMap "lbl" is invalid: metadata.labels: Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      );
      expect(statusOf(label).details?.causes?.[0]).toMatchObject({
        reason: 'FieldValueInvalid',
        field: 'metadata.labels',
      });

      const owners = configMap(ns, 'owned');
      owners.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'u1', controller: true },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'u2', controller: true },
      ];
      const two = await apiError(t.client.create(owners));
      expect([two.code, two.reason]).toEqual([422, 'Invalid']);
      expect(two.message).toContain('Only one reference can have Controller set to true');

      const long = await t.client
        .resource<KubeObject>(CONFIGMAPS_GVR)
        .create(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: `${'x'.repeat(70)}-` } },
          { namespace: ns },
        );
      expect(long.metadata.name).toMatch(/^x{58}[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    });
  });
}
