// How a reflector got its state, in words, from what it reported (reflector.listBegin's method): a WatchList
// stream (one WATCH with sendInitialEvents=true that stays open) or a LIST then a WATCH from its
// resourceVersion. Learn and the Reflector panel tell the same story, the one the informer took; when the
// producer does not say, both ways are named and neither is claimed.
import type { ListMethod } from '../../shared/protocol/events';

const SHORT: Record<ListMethod, string> = {
  watchList: 'WatchList stream',
  list: 'LIST, then WATCH',
};

/** "WatchList stream", "LIST, then WATCH", or "not reported". */
export function listMethodLabel(m: ListMethod | undefined): string {
  return m ? SHORT[m] : 'not reported';
}

/** The sentence that tells how this reflector got its state. */
export function ListStory({ method }: { method: ListMethod | undefined }) {
  if (method === 'watchList') {
    return (
      <span data-testid="list-story">
        This reflector got its state from a <b>WatchList stream</b>: one <code>WATCH</code> with{' '}
        <code>sendInitialEvents=true</code>, on which the server sends every object as an <code>ADDED</code> event, then
        a bookmark marking the end of the initial events; the same watch then stays open for changes. No{' '}
        <code>LIST</code> was made (client-go’s <code>WatchListClient</code>, on by default since 1.35).
      </span>
    );
  }
  if (method === 'list') {
    return (
      <span data-testid="list-story">
        This reflector <code>LIST</code>ed every object of its kind (in pages), then opened a <code>WATCH</code>{' '}
        starting at the list’s <code>resourceVersion</code>, so no change between the two is lost (the WatchList stream
        was not used: turned off, or refused by the server).
      </span>
    );
  }
  return (
    <span data-testid="list-story">
      A reflector gets its state in one of two ways, and this one did not report which: a <b>WatchList stream</b> (one{' '}
      <code>WATCH</code> with <code>sendInitialEvents=true</code> that sends every object, a bookmark, then stays open;
      client-go’s default since 1.35), or a <code>LIST</code> followed by a <code>WATCH</code> from the list’s{' '}
      <code>resourceVersion</code>.
    </span>
  );
}
