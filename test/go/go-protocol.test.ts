// The Go bridge's protocol types are generated from shared/protocol: this fails while the checked-in Go file
// differs from what the generator makes now (regenerate with `npx tsx scripts/go-protocol/generate.ts`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GO_PROTOCOL_FILE, generateGoProtocol } from '../../scripts/go-protocol/generate';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';

describe('generated Go protocol types', () => {
  it('match the TypeScript protocol (regenerate with npx tsx scripts/go-protocol/generate.ts)', () => {
    expect(readFileSync(GO_PROTOCOL_FILE, 'utf8')).toBe(generateGoProtocol());
  });

  it('carry the protocol version and one kind constant per event', () => {
    const go = generateGoProtocol();
    expect(go).toContain(`const ProtocolVersion = ${PROTOCOL_VERSION}`);
    for (const kind of ['queue.add', 'reconcile.start', 'reflector.bookmark', 'bridge.dropped']) {
      expect(go).toContain(`= ${JSON.stringify(kind)}`);
    }
  });

  it('carry the OpenTelemetry span names and attribute keys (shared/protocol/otel-names.ts)', () => {
    const go = generateGoProtocol();
    expect(go).toMatch(/OtelSpanReconcile\s+= "reconcile"/);
    expect(go).toMatch(/OtelAttrObjectResourceVersion\s+= "controller_scope.object.resource_version"/);
    expect(go).toContain('const OtelWriteIDSeed = "controller-scope/write/v1"');
  });
});
