// Pulls detail from the server on demand (push summaries, pull details): runs one inspect request when its
// key changes, optionally refreshing, and keeps the last answer or the server's error message.
import { useEffect, useState } from 'react';
import type { InspectRequest, InspectResult } from '../../shared/protocol/socket';
import { useConnection } from '../client/hooks';

export interface InspectState<T extends InspectResult> {
  data?: T;
  error?: string;
  loading: boolean;
  /** False when there is no connection to ask (tests, offline). */
  available: boolean;
}

export function useInspect<T extends InspectResult>(
  req: InspectRequest | undefined,
  refreshMs = 0,
  bump = 0,
): InspectState<T> {
  const conn = useConnection();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean; for?: string }>({ loading: false });
  const id = req ? JSON.stringify(req) : '';
  useEffect(() => {
    if (!conn || !id) return;
    let cancelled = false;
    const ask = async () => {
      setState((s) => ({ ...s, loading: true }));
      const ack = await conn.inspect(JSON.parse(id) as InspectRequest);
      if (cancelled) return;
      if (ack.ok) setState({ data: ack.result as T, loading: false, for: id });
      else setState({ error: ack.error, loading: false, for: id });
    };
    void ask();
    const timer = refreshMs > 0 ? setInterval(() => void ask(), refreshMs) : undefined;
    return () => {
      cancelled = true;
      if (timer) clearInterval(timer);
    };
  }, [conn, id, refreshMs, bump]);
  const out: InspectState<T> = { loading: state.loading, available: conn !== null };
  if (state.for === id) {
    if (state.data !== undefined) out.data = state.data;
    if (state.error !== undefined) out.error = state.error;
  }
  return out;
}
