// Sends one command over the live connection and keeps its answer: the result, or the server's refusal
// message exactly as given (e.g. writes refused against a real cluster).
import { useCallback, useState } from 'react';
import type { Command } from '../../shared/protocol/commands';
import { useConnection } from '../client/hooks';

export interface CommandHandle<R> {
  run: (cmd: Command) => Promise<void>;
  busy: boolean;
  error?: string;
  result?: R;
  available: boolean;
}

export function useCommand<R>(): CommandHandle<R> {
  const conn = useConnection();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [result, setResult] = useState<R | undefined>();
  const run = useCallback(
    async (cmd: Command) => {
      if (!conn) return;
      setBusy(true);
      setError(undefined);
      try {
        const ack = await conn.command(cmd);
        if (ack.ok) setResult(ack.result as R);
        else setError(ack.error);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    },
    [conn],
  );
  const h: CommandHandle<R> = { run, busy, available: conn !== null && conn.canSend() };
  if (error !== undefined) h.error = error;
  if (result !== undefined) h.result = result;
  return h;
}
