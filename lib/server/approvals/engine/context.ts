import 'server-only';
// The engine's context: its settings, the steps every part of it takes (audit, events, notifications,
// conditional status changes, policy and freeze reads) and the state it keeps in this process. Built once per
// engine by `createEngineContext`, and passed to every command and step as `ctx`.
import type { BuiltReview } from '../operations/types';
import { type ReadingSteps, readingSteps } from './reads';
import { type EngineSettings, engineSettings } from './settings';
import { type RecordingSteps, recordingSteps } from './steps';
import type { EngineDeps } from './types';

/** A review built for a requester's preview, with the request id it was built for. */
export interface KeptPreview {
  id: string;
  built: BuiltReview;
  at: number;
}

export interface EngineContext extends EngineSettings, RecordingSteps, ReadingSteps {
  /**
   * Reviews built for a requester's preview, with the request id they were built for: creating the same
   * payload right after reuses both, so approvers see exactly what the requester saw, and the service is
   * not asked again.
   */
  previews: Map<string, KeptPreview>;
  /** The follow-up round of each request in flight in this process: one lookup per request at a time. */
  rounds: Map<string, Promise<string | undefined>>;
}

/** The engine's dependencies with what every part of it shares: audit, events, notifications, transitions. */
export function createEngineContext(deps: EngineDeps): EngineContext {
  const settings = engineSettings(deps);
  const recording = recordingSteps(settings);
  const reading = readingSteps(settings, recording);
  return { ...settings, ...recording, ...reading, previews: new Map(), rounds: new Map() };
}
