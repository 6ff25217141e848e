import 'server-only';
// One endpoint of the sandbox: its route, request schema, behaviour and OpenAPI description together. The
// router and the OpenAPI document are both built from the list in ./index.ts.
import type { z } from 'zod';
import type { WalletRow } from '../context';
import type { SandboxCore } from '../core';
import type { FaultStore } from '../faults';

export interface PageMeta {
  currentPage: number;
  itemCount: number;
  itemsPerPage: number;
  totalItems: number;
  totalPages: number;
}

/** The envelope's data and message (and meta for paged lists). */
export interface Result {
  data: unknown;
  message: string;
  meta?: PageMeta;
}

/** One authenticated request: the key's wallet, path parameters, query and a structurally valid body. */
export interface Call<B = unknown> {
  wallet: WalletRow;
  params: Record<string, string>;
  query: URLSearchParams;
  body: B;
}

/** What every handler may use: the service state and the wallet fault controls. */
export interface SandboxContext {
  core: SandboxCore;
  faults: FaultStore;
}

/** A query parameter, with a description where the name alone does not say what it means. */
type QueryParameter = string | { name: string; description: string };

export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  /** Summary used by the OpenAPI document. */
  summary: string;
  /** Structural check of the body (a failure is 400); semantic checks in the handler answer 422. */
  body?: z.ZodType;
  /** The documented request body, when callers should send more than `body` checks (the client's input schema). */
  documentedBody?: z.ZodType;
  /** The envelope's `data`; `paged` lists carry an array of it and `meta`. Undocumented when absent. */
  response?: { data: z.ZodType; paged?: true };
  query?: readonly QueryParameter[];
  /** Moves money or signs: subject to the delay and lost-answer fault controls. */
  movesMoney?: true;
  handle: (ctx: SandboxContext, call: Call<never>) => Promise<Result>;
}

type Definition<S extends z.ZodType | undefined> = Omit<Endpoint, 'body' | 'handle'> & {
  body?: S;
  handle: (ctx: SandboxContext, call: Call<S extends z.ZodType ? z.output<S> : undefined>) => Promise<Result>;
};

/** Declares an endpoint; the handler's body type follows its request schema. */
export function endpoint<S extends z.ZodType | undefined = undefined>(definition: Definition<S>): Endpoint {
  return definition;
}
