/**
 * What a front end plugs into a dispatch (the CLI, the adapters, `serve`, the library): one
 * {@link DispatchIo} (src/engine/types.ts), every field with the one-shot default, and what the stages
 * read of it. The stages only read it: what they decide comes back by value (`Executed`).
 * @module
 */
import type { Dispatching, DispatchIo } from "./types.ts";
import type { EngineSettings } from "./settings.ts";
import type { DispatchTrace } from "./trace.ts";

export type { Dispatching, DispatchIo, EngineDispatchOutcome, HostHints } from "./types.ts";

/** What the stages read of these settings and this io; `trace` is the engine's own, when one is kept. */
export function dispatchingOf(settings: EngineSettings, io: DispatchIo, trace?: DispatchTrace): Promise<Dispatching> {
  return trace ? withSink(settings, io, trace) : Promise.resolve(base(settings, io));
}

function base(settings: EngineSettings, io: DispatchIo): Dispatching {
  return { tempDir: settings.tempDir, delegatingHost: settings.delegatingHost, io };
}

/** The trace module is loaded only for a trace. */
async function withSink(settings: EngineSettings, io: DispatchIo, trace: DispatchTrace): Promise<Dispatching> {
  return { ...base(settings, io), trace: (await import("./trace.ts")).traceSink(trace) };
}
