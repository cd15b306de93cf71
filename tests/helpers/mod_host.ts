/**
 * A library host of the path matrix (tests/path_matrix_test.ts): a program that embeds the engine
 * through `mod.ts`, as an in-process TypeScript host does, run once per step. Reads one JSON request
 * on stdin and prints one JSON answer:
 *
 * - `{"op":"dispatch","event":{…},"options":{…}}` → the §9 result of `dispatch(event, options)`;
 * - `{"op":"transcript","home":"…","entry":{…}}` → `appendTranscript(home, entry)`.
 *
 * Usage: `deno run -A tests/helpers/mod_host.ts < request.json`
 * @module
 */
import { appendTranscript, dispatch } from "../../mod.ts";

const request = JSON.parse(new TextDecoder().decode(await new Response(Deno.stdin.readable).arrayBuffer()));
const answer = request.op === "dispatch"
  ? await dispatch(request.event, request.options)
  : await appendTranscript(request.home, request.entry);
console.log(JSON.stringify(answer));
