// What every panel receives: the (possibly frozen) view, the route in focus and a wall clock for countdowns.
import type { RuntimeView } from '../../shared/protocol/view';
import type { Route } from '../client/route';

export interface PanelProps {
  view: RuntimeView;
  route: Route;
  /** Epoch ms used for countdowns and "ago" labels. */
  now: number;
}
