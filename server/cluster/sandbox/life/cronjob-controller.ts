// kube-controller-manager's CronJob controller, reduced (kubernetes pkg/controller/cronjob/cronjob_controllerv2.go):
// at each scheduled minute a Job named `<cronjob>-<minutes since the epoch>` is created from
// spec.jobTemplate, concurrencyPolicy Allow/Forbid/Replace is honoured, status.active,
// lastScheduleTime and lastSuccessfulTime are kept, finished Jobs beyond the history limits are
// deleted, and the CronJob is requeued for its next scheduled minute. Schedules are read in UTC.
import type { KubeObject } from '../../../../shared/models/object';
import type { Client } from '../../../runtime/client';
import { rawPatch } from '../../../runtime/client';
import { setControllerReference } from '../../../runtime';
import { reconcileFunc } from '../../../runtime';
import { isAlreadyExists, isNotFound } from '../../../runtime';
import { nextAfter, parseCron } from './cron';

const CRONJOB = { apiVersion: 'batch/v1', kind: 'CronJob' } as const;
const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
const SCHEDULED_AT = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** Missed start times looked at, at most (upstream gives up past 100 and starts the latest). */
const MAX_MISSED = 100;

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function finished(job: KubeObject): 'Complete' | 'Failed' | undefined {
  for (const c of (rec(job.status).conditions as { type: string; status: string }[] | undefined) ?? [])
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  return undefined;
}

const ref = (j: KubeObject): Obj => ({
  kind: 'Job',
  namespace: j.metadata.namespace,
  name: j.metadata.name,
  uid: j.metadata.uid,
  apiVersion: 'batch/v1',
  resourceVersion: j.metadata.resourceVersion,
});

const byCreation = (a: KubeObject, b: KubeObject): number =>
  (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '');

export function cronJobReconciler(client: Client, now: () => number = Date.now) {
  return reconcileFunc(async (_ctx, req) => {
    let cj: KubeObject;
    try {
      cj = await client.get<KubeObject>(CRONJOB, { namespace: req.namespace, name: req.name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (cj.metadata.deletionTimestamp) return;
    const spec = rec(cj.spec);
    const status = rec(cj.status);
    let schedule;
    try {
      schedule = parseCron(String(spec.schedule ?? ''));
    } catch {
      return; // An unparsable schedule never runs (upstream records an event and waits for an update).
    }
    const jobs = (await client.list<KubeObject>(JOB, { namespace: req.namespace })).items.filter((j) =>
      j.metadata.ownerReferences?.some((r) => r.controller && r.uid === cj.metadata.uid),
    );
    let active = jobs.filter((j) => !finished(j) && !j.metadata.deletionTimestamp);
    const t = now();
    // The latest scheduled minute since the last run (or creation) that is due.
    const since = Date.parse(String(status.lastScheduleTime ?? cj.metadata.creationTimestamp ?? ''));
    let due: number | undefined;
    for (let i = 0, at = nextAfter(schedule, since); at !== undefined && at <= t && i < MAX_MISSED; i++) {
      due = at;
      at = nextAfter(schedule, at);
    }
    let lastScheduleTime = status.lastScheduleTime as string | undefined;
    if (due !== undefined && spec.suspend !== true) {
      const policy = String(spec.concurrencyPolicy ?? 'Allow');
      if (policy === 'Replace')
        for (const j of active) await client.delete(j, { propagationPolicy: 'Background' }).catch(ignoreNotFound);
      if (policy === 'Replace') active = [];
      if (policy !== 'Forbid' || active.length === 0) {
        const template = rec(spec.jobTemplate);
        const meta = rec(template.metadata);
        const job: KubeObject = {
          ...JOB,
          metadata: {
            name: `${req.name}-${Math.floor(due / 60_000)}`,
            namespace: req.namespace,
            labels: { ...(rec(meta.labels) as Record<string, string>) },
            annotations: { ...(rec(meta.annotations) as Record<string, string>), [SCHEDULED_AT]: rfc3339(due) },
          },
          spec: structuredClone(rec(template.spec)),
        };
        setControllerReference(cj, job);
        try {
          active.push(await client.create(job));
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
        lastScheduleTime = rfc3339(due);
      }
    }
    // History limits: the oldest finished Jobs of each outcome go.
    for (const [outcome, limit] of [
      ['Complete', Number(spec.successfulJobsHistoryLimit ?? 3)],
      ['Failed', Number(spec.failedJobsHistoryLimit ?? 1)],
    ] as const) {
      const done = jobs.filter((j) => finished(j) === outcome).sort(byCreation);
      for (const j of done.slice(0, Math.max(0, done.length - limit)))
        await client.delete(j, { propagationPolicy: 'Background' }).catch(ignoreNotFound);
    }
    const succeeded = jobs
      .filter((j) => finished(j) === 'Complete')
      .map((j) => String(rec(j.status).completionTime ?? ''))
      .sort();
    const next: Obj = { active: active.length ? active.map(ref) : null };
    if (lastScheduleTime) next.lastScheduleTime = lastScheduleTime;
    const lastSuccess = succeeded[succeeded.length - 1];
    if (lastSuccess) next.lastSuccessfulTime = lastSuccess;
    if (JSON.stringify({ ...status, ...next }) !== JSON.stringify(status))
      await client.status().patch(cj, rawPatch('merge', { status: next }));
    const upcoming = nextAfter(schedule, t);
    return upcoming === undefined ? undefined : { requeueAfterMs: upcoming - t + 100 };
  });
}

const ignoreNotFound = (err: unknown): Promise<void> => (isNotFound(err) ? Promise.resolve() : Promise.reject(err));
