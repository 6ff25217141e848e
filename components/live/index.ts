export { LiveEvents } from './live-events';
export { useLiveRefetchInterval } from './live-status';
