/**
 * The library front end as a child process (tests/helpers/every_path.ts): reads `{event, options}` on
 * stdin, dispatches it through `mod.ts` with this process's environment, prints the result.
 * @module
 */
import { dispatch } from "../../mod.ts";

const { event, options } = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify(await dispatch(event, options)));
