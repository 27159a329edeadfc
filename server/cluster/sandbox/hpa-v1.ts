// autoscaling/v1 HorizontalPodAutoscalers share storage with autoscaling/v2 (the stored form), as in
// kube-apiserver; the conversion covers the CPU-utilization target v1 can express (kubernetes
// pkg/apis/autoscaling/v1/conversion.go). Other v2 metrics are not visible through v1.
import type { KubeObject } from '../../../shared/models/object';
import { rec, type Obj } from './defaults-core';

const isCpuUtilization = (m: Obj): boolean =>
  m.type === 'Resource' && rec(m.resource).name === 'cpu' && rec(rec(m.resource).target).type === 'Utilization';

/** Stored (v2) form → autoscaling/v1. */
export function hpaV1FromStorage(obj: KubeObject): KubeObject {
  const spec = { ...rec(obj.spec) };
  const metrics = Array.isArray(spec.metrics) ? (spec.metrics as Obj[]) : undefined;
  delete spec.metrics;
  delete spec.behavior;
  const cpu = metrics?.find(isCpuUtilization);
  if (cpu) spec.targetCPUUtilizationPercentage = rec(rec(cpu.resource).target).averageUtilization;
  const out: KubeObject = { ...obj, spec };
  if (obj.status !== undefined) {
    const status = { ...rec(obj.status) };
    const current = Array.isArray(status.currentMetrics) ? (status.currentMetrics as Obj[]) : [];
    delete status.currentMetrics;
    delete status.conditions;
    status.currentReplicas ??= 0;
    const c = current.find((m) => m.type === 'Resource' && rec(m.resource).name === 'cpu');
    const util = rec(rec(c?.resource).current).averageUtilization;
    if (util !== undefined) status.currentCPUUtilizationPercentage = util;
    out.status = status;
  }
  return out;
}

/** autoscaling/v1 → stored (v2) form. */
export function hpaV1ToStorage(obj: KubeObject): KubeObject {
  const spec = { ...rec(obj.spec) };
  const target = spec.targetCPUUtilizationPercentage;
  delete spec.targetCPUUtilizationPercentage;
  if (typeof target === 'number')
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } },
    ];
  const out: KubeObject = { ...obj, spec };
  if (obj.status !== undefined) {
    const status = { ...rec(obj.status) };
    const util = status.currentCPUUtilizationPercentage;
    delete status.currentCPUUtilizationPercentage;
    if (typeof util === 'number')
      status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: util } } }];
    out.status = status;
  }
  return out;
}
