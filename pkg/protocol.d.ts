// Declarations of `agenteval/protocol`, the worker's side of the package's one worker protocol.
import type { CaseOutcome, Progress } from "./agenteval_wasm.js";

/** One request being answered: what a served method gets besides its arguments. */
export interface WorkerCall {
  readonly id: number;
  /** Aborted when the caller aborts the request. */
  readonly signal: AbortSignal;
  /** Whether the caller wants `result` and `rows` replies. */
  readonly stream: boolean;
  progress(progress: Progress): void;
  result(outcome: CaseOutcome): void;
  rows(rows: unknown, transfer?: Transferable[]): void;
  /** A judge token from the caller's `getToken`. */
  token(): Promise<string>;
  /** Buffers moved (not copied) with the `done` reply. */
  transfer(buffers: Transferable[]): void;
}

/** Answers the requests this worker receives with `methods`. */
export function serve(methods: { [method: string]: (args: any[], call: WorkerCall) => unknown }): void;

/** An `Error` with code `invalidArgument`. */
export function misuse(message: string): Error & { code: "invalidArgument" };
