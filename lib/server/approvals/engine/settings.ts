import 'server-only';
// The engine's settings, taken from its dependencies once: the clock, the windows and backoff of the follow-up,
// the capability store, the configuration services and the alerts, each with its default.
import type { ConsoleDb } from '@/lib/db/schema';
import { type LookupCapability, looksLikeMissingEndpoint } from '../lookup';
import { type ConfigurationServices, LocalRefusal } from '../operations/types';
import { createEngineAlerts, type EngineAlerts } from './alerts';
import type { EngineCapabilities, EngineDeps, FollowUpSettings } from './types';

const NO_CONFIGURATION: ConfigurationServices = {
  seal: () => {
    throw new LocalRefusal('Configuration changes cannot be carried out by this console.');
  },
  open: () => {
    throw new LocalRefusal('Configuration changes cannot be carried out by this console.');
  },
  connectWallet: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  rotateWalletKey: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  removeWallet: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  sendInvitation: () => Promise.reject(new LocalRefusal('This console cannot send invitations.')),
  invitationProblem: () => 'This console cannot send invitations.',
};

/** Without a capability store every extension is tried, and a missing one is skipped from then on. */
function inMemoryCapabilities(): EngineCapabilities {
  const missing = new Map<string, Set<LookupCapability>>();
  return {
    missing: async (walletId) => new Set(missing.get(walletId) ?? []),
    markMissing: async (walletId, name) => {
      const set = missing.get(walletId) ?? new Set();
      set.add(name);
      missing.set(walletId, set);
    },
    isMissingEndpoint: looksLikeMissingEndpoint,
  };
}

/** What every part of the engine reads of its dependencies, defaults filled in. */
export interface EngineSettings {
  db: ConsoleDb;
  deps: EngineDeps;
  now: () => Date;
  unknownOutcomeWindowMs: number;
  capabilities: EngineCapabilities;
  followUp: FollowUpSettings;
  /** Columns that (re)start the follow-up of a request entering SUBMITTED or OUTCOME_UNKNOWN. */
  startFollowing: () => { followUpAttempts: number; nextFollowUpAt: Date; followUpParkedAt: null };
  stuckSubmittingMs: number;
  configuration: ConfigurationServices;
  alerts: EngineAlerts;
}

export function engineSettings(deps: EngineDeps): EngineSettings {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const unknownOutcomeWindowMs = deps.unknownOutcomeWindowMs ?? 600_000;

  const capabilities = deps.capabilities ?? inMemoryCapabilities();

  const followUp: FollowUpSettings = {
    baseMs: 2_000,
    maxMs: 300_000,
    maxRounds: 19,
    leaseMs: 60_000,
    ...deps.followUp,
  };

  /** Columns that (re)start the follow-up of a request entering SUBMITTED or OUTCOME_UNKNOWN. */
  const startFollowing = () => ({
    followUpAttempts: 0,
    nextFollowUpAt: new Date(now().getTime() + followUp.baseMs),
    followUpParkedAt: null,
  });

  const stuckSubmittingMs = deps.stuckSubmittingMs ?? 120_000;

  const configuration = deps.configuration ?? NO_CONFIGURATION;

  const alerts = createEngineAlerts(db, deps.alerts);

  return {
    db,
    deps,
    now,
    unknownOutcomeWindowMs,
    capabilities,
    followUp,
    startFollowing,
    stuckSubmittingMs,
    configuration,
    alerts,
  };
}
