// Runs one command and keeps the server's answer for display: a confirmation, or its refusal verbatim.
import { useState } from 'react';
import type { Command } from '../../../shared/protocol/commands';
import { useConnection } from '../../client/hooks';

export type Outcome = { ok: true; text: string } | { ok: false; text: string };

export function useRunner(): {
  run: (cmd: Command, ok: (r: unknown) => string) => Promise<void>;
  outcome?: Outcome;
  busy: boolean;
  can: boolean;
} {
  const conn = useConnection();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (cmd: Command, ok: (r: unknown) => string) => {
    if (!conn) return;
    setBusy(true);
    const ack = await conn.command(cmd);
    setBusy(false);
    setOutcome(ack.ok ? { ok: true, text: ok(ack.result) } : { ok: false, text: ack.error });
  };
  const r: { run: typeof run; outcome?: Outcome; busy: boolean; can: boolean } = {
    run,
    busy,
    can: conn !== null && conn.canSend(),
  };
  if (outcome) r.outcome = outcome;
  return r;
}

export function OutcomeNotice({ o }: { o?: Outcome }) {
  if (!o) return null;
  return (
    <div
      className={`notice ${o.ok ? 'ok' : 'err'}`}
      style={{ marginTop: 10 }}
      data-testid={o.ok ? 'command-ok' : 'command-error'}
    >
      {o.ok ? o.text : <>Refused by the server: {o.text}</>}
    </div>
  );
}
