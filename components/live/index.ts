export { LiveEvents, type LiveEventsProps } from './live-events';
export { type LiveStatus, useLiveRefetchInterval, useLiveStatus } from './live-status';
