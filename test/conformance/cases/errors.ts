// Error Status bodies that are not covered next to their verbs: validation (422 with causes), bad
// requests, unknown paths and names that do not match the URL (spec §6).
import { describe, expect, it } from 'vitest';
import { apiError, CONFIGMAPS_GVR, configMap, newNamespace, statusOf } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

export function errorCases(target: GetTarget, _targetName: TargetName): void {
  describe('error Status bodies', () => {
    it('422 Invalid names the Kind, the field and the cause', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(t.client.create(configMap(ns, 'Bad_Name')));
      const st = statusOf(err);
      expect(st).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Invalid',
        code: 422,
        details: { name: 'Bad_Name', kind: 'ConfigMap' },
      });
      expect(st.message).toMatch(/^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": /);
      expect(st.details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    });

    it('422 Invalid when neither name nor generateName is given', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(
        t.client
          .resource(CONFIGMAPS_GVR)
          .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, { namespace: ns }),
      );
      expect([err.code, err.reason]).toEqual([422, 'Invalid']);
      expect(err.message).toContain('metadata.name: Required value: name or generateName is required');
      expect(statusOf(err).details?.causes?.[0]).toMatchObject({
        reason: 'FieldValueRequired',
        field: 'metadata.name',
      });
    });

    it('400 BadRequest when the body names another object than the URL', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'real'));
      const err = await apiError(
        t.http.request({
          method: 'PUT',
          path: `/api/v1/namespaces/${ns}/configmaps/real`,
          body: configMap(ns, 'other'),
        }),
      );
      expect([err.code, err.reason, err.message]).toEqual([
        400,
        'BadRequest',
        'the name of the object (other) does not match the name on the URL (real)',
      ]);
      const nsErr = await apiError(
        t.http.request({
          method: 'POST',
          path: `/api/v1/namespaces/${ns}/configmaps`,
          body: configMap('default', 'x'),
        }),
      );
      expect([nsErr.code, nsErr.reason, nsErr.message]).toEqual([
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      ]);
    });

    it('an unknown resource path is a 404 the client reports as NotFound', async () => {
      const t = target();
      const err = await apiError(t.http.request({ path: '/api/v1/namespaces/default/nosuchresources' }));
      expect([err.code, err.reason]).toEqual([404, 'NotFound']);
      const group = await apiError(t.http.request({ path: '/apis/nosuch.example.com/v1' }));
      expect([group.code, group.reason]).toEqual([404, 'NotFound']);
    });

    it('an unsupported patch content type is 415 UnsupportedMediaType', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'p'));
      const err = await apiError(
        t.http.request({
          method: 'PATCH',
          path: `/api/v1/namespaces/${ns}/configmaps/p`,
          body: '{}',
          contentType: 'application/x-nonsense',
        }),
      );
      expect([err.code, err.reason]).toEqual([415, 'UnsupportedMediaType']);
    });
  });
}
