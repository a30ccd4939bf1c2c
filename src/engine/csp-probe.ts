// Whether this worker runs under the site's Content-Security-Policy. The
// lockdown (worker-lockdown.ts) cannot take `import()` away: it is syntax, and
// code a policy builds with `Function` can use it to load and run a remote
// module. Only the policy's `script-src` refuses that, and a worker takes the
// policy of its own script's response header, which a static host may not
// send (src/csp.ts). So the engine worker asks: a `data:` module is refused
// under the policy exactly as a remote one is, without touching the network.
// Chromium logs the refusal in the worker's console; that line is this check.

/** A module whose URL says why it is asked for, for whoever reads the console's refusal. */
const PROBE = 'data:text/javascript,/* schedlab: is this worker under its Content-Security-Policy? */';

/** True when the worker may not run script from elsewhere (the policy is in force). */
export async function remoteScriptRefused(): Promise<boolean> {
  try {
    // A variable, so that the bundler leaves the import to the browser.
    const url: string = PROBE;
    await import(/* @vite-ignore */ url);
    return false;
  } catch {
    return true;
  }
}
