// npm run bench:ui: the built app in Chromium (Debian's, driven by
// playwright-core as the browser tests do) playing the 64-CPU Group Imbalance
// preset. Prints the time to first interactive render and the frame-time
// percentiles, then the engine's own speed in Chromium's wasm against the
// native build on the same preset, and whether the budgets of the product spec
// hold (p95 ≤ 16 ms, first render ≤ 1.5 s, wasm within 1.5x of native). It
// asserts nothing: budgets are judged by people.
//
// Usage: node scripts/bench-ui.mjs [--seconds 3] [--speed 1] [--no-build]
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview } from 'vite';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
// The preset lasts 4 simulated seconds: at 1x, 3 s of play stays inside it.
const seconds = Number(arg('seconds', '3'));
const speed = arg('speed', '1');
const PRESET = 'group-imbalance-make';

if (!process.argv.includes('--no-build')) execSync('npm run build', { cwd: root, stdio: 'inherit' });

const server = await preview({ root, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
const { port } = server.httpServer.address();
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'schedlab-bench-')), {
  executablePath: '/usr/bin/chromium',
  viewport: { width: 1280, height: 900 },
  // No service worker (offline support): it would fetch the engine files
  // below itself, past the route that serves them.
  serviceWorkers: 'block',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  // First interactive render: navigation start to the app's mark, set once the
  // first view with its controls is on screen (src/app.tsx).
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => performance.getEntriesByName('schedlab-interactive').length > 0, null, {
    timeout: 30_000,
  });
  const firstMs = await page.evaluate(() => performance.getEntriesByName('schedlab-interactive')[0].startTime);

  await page.locator('[data-testid=preset-pick]').selectOption(PRESET);
  await page.waitForFunction((name) => document.querySelector('.description')?.textContent?.includes(name), PRESET);
  await page.locator('.controls .speed select').selectOption(speed);
  // Frame times: intervals between animation frames while playing, measured in the page.
  await page.evaluate(() => {
    const w = window;
    w.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.getByTestId('btn-play').click();
  await page.waitForTimeout(seconds * 1000);
  // Stop measuring before pausing, so idle frames after the pause do not count.
  const frames = await page.evaluate(() => {
    window.__stopFrames = true;
    return window.__frames.slice(2);
  });
  // Pause, unless the run already ended (then the button is disabled).
  await page
    .getByTestId('btn-play')
    .click({ timeout: 1000 })
    .catch(() => {});
  const simMs = Number(await page.getByTestId('sim-time').textContent());
  const p50 = pct(frames, 50);
  const p95 = pct(frames, 95);
  const p99 = pct(frames, 99);
  console.log(`bench:ui — ${PRESET} playing at ${speed}x real time for ${seconds} s in Chromium (1280×900, headless)`);
  console.log(
    `  first interactive render: ${firstMs.toFixed(0)} ms (budget 1500 ms: ${firstMs <= 1500 ? 'holds' : 'NOT met'})`,
  );
  const wallMs = frames.reduce((a, b) => a + b, 0);
  console.log(
    `  frames: ${frames.length} (${((frames.length * 1000) / wallMs).toFixed(1)} fps), simulated ${simMs.toFixed(1)} ms`,
  );
  // rAF intervals are whole refresh periods (16.7 ms at 60 Hz, with a little
  // jitter): p95 at one period means at most 5% of frames took longer, i.e.
  // the budget "p95 ≤ 16 ms" is read as "p95 within one 60 Hz frame".
  const PERIOD = 1000 / 60 + 0.5;
  const within = frames.filter((f) => f <= PERIOD).length / frames.length;
  console.log(`  frames within one 60 Hz frame: ${(within * 100).toFixed(0)}%`);
  console.log(
    `  frame time p50 ${p50.toFixed(1)} ms · p95 ${p95.toFixed(1)} ms · p99 ${p99.toFixed(1)} ms · max ${Math.max(...frames).toFixed(1)} ms`,
  );
  console.log(
    `  budget p95 ≤ 16 ms, i.e. within one 60 Hz frame (16.7 ms + 0.5 ms jitter): ${p95 <= PERIOD ? 'holds' : 'NOT met'}`,
  );

  // Responsiveness at scale: the 256-CPU, 10,000-thread stress scenario played for 3 s, then a jump to 90 % of
  // its run; every main-thread task over 50 ms ("longtask") is recorded. A figure, not a test: on a shared
  // machine a task's wall time measures the load as much as the page.
  const stress = readFileSync(join(root, 'wasm-core/bench/stress-256cpu-10k.json'), 'utf8');
  await page.evaluate((json) => window.__schedlab.loadScenarioJson(json), stress);
  await page.waitForFunction(() => document.querySelector('.description')?.textContent?.includes('stress-256cpu-10k'));
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await page.getByTestId('btn-play').click();
  await page.waitForTimeout(3000);
  // Pause, unless the run already ended (the engine now plays its one simulated second in under 3 s).
  await page
    .getByTestId('btn-play')
    .click({ timeout: 1000 })
    .catch(() => {});
  const box = await page.getByTestId('heatmap-load').boundingBox();
  await page.getByTestId('heatmap-load').click({ position: { x: 52 + (box.width - 68) * 0.9, y: 10 } });
  await page
    .getByTestId('progress')
    .waitFor({ timeout: 20_000 })
    .catch(() => {});
  await page.waitForFunction(() => !document.querySelector('[data-testid=progress]'), null, {
    timeout: 120_000,
    polling: 100,
  });
  const long = await page.evaluate(() => window.__long);
  const longest = Math.max(0, ...long);
  console.log(
    `  stress-256cpu-10k playing 3 s then jumping to 90 %: ${long.length} main-thread tasks over 50 ms, longest ${longest.toFixed(0)} ms`,
  );
  console.log(`  budget no main-thread task over 200 ms: ${longest <= 200 ? 'holds' : 'NOT met'}`);

  // Issue 16: a 1,024-CPU machine (16 nodes × 64 cores, two run/sleep threads per CPU, as the browser test
  // machine-1024 builds it) played for 5 s at real time: every main-thread task is held against 100 ms.
  const big = {
    version: 1,
    name: 'play-16x64',
    seed: 1,
    duration_ms: 1000,
    hz: 250,
    machine: { nodes: 16, cores_per_node: 64, threads_per_core: 1 },
    processes: [],
  };
  for (let i = 0; i * 100 < 2048; i++) {
    big.processes.push({
      name: `svc${i}`,
      threads: Math.min(100, 2048 - i * 100),
      start_ms: i % 10,
      program: [{ body: [{ run_us: { exp: 2000 } }, { sleep_us: { exp: 8000 } }] }],
    });
  }
  await page.evaluate((json) => window.__schedlab.loadScenarioJson(json), JSON.stringify(big));
  await page.waitForFunction(() => document.querySelector('.description')?.textContent?.includes('play-16x64'));
  await page.locator('.controls .speed select').selectOption('1');
  await page.evaluate(() => {
    window.__long = [];
  });
  await page.getByTestId('btn-play').click();
  await page.waitForTimeout(5000);
  await page
    .getByTestId('btn-play')
    .click({ timeout: 1000 })
    .catch(() => {});
  const bigLong = await page.evaluate(() => window.__long);
  const bigLongest = Math.max(0, ...bigLong);
  console.log(
    `  1,024 CPUs (16 × 64, 2,048 run/sleep threads) playing 5 s: ${bigLong.length} main-thread tasks over 50 ms, longest ${bigLongest.toFixed(0)} ms`,
  );
  console.log(`  target no main-thread task over 100 ms at 1,024 CPUs: ${bigLongest <= 100 ? 'holds' : 'NOT met'}`);

  // The engine alone in Chromium's wasm: the wasm package served beside the
  // app, the preset run to its end, best of five; native: the bench binary,
  // best of five. The lab's page is closed first: its engine worker, holding
  // the 1,024-CPU run, would otherwise share the two cores with the
  // measurement (readings of 0.89x to 1.54x in one hour).
  await page.close();
  const bench = await browser.newPage();
  const pkg = join(root, 'wasm-core/pkg');
  await bench.route('**/__bench/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (file === 'blank.html')
      return route.fulfill({ body: '<!doctype html><title>bench</title>', contentType: 'text/html' });
    const type = file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return route.fulfill({ body: readFileSync(join(pkg, file)), contentType: type });
  });
  await bench.goto(`http://127.0.0.1:${port}/__bench/blank.html`);
  const presetText = readFileSync(join(root, 'wasm-core/presets', `${PRESET}.json`), 'utf8');
  const wasm = await bench.evaluate(async (scenario) => {
    const m = await import('/__bench/schedlab_core.js');
    await m.default({ module_or_path: '/__bench/schedlab_core_bg.wasm' });
    let best = Infinity;
    let events = 0;
    for (let i = 0; i < 5; i++) {
      const sim = new m.Simulator(scenario);
      const t = performance.now();
      sim.run_until(sim.duration_ns());
      best = Math.min(best, (performance.now() - t) / 1e3);
      events = sim.events();
      sim.free();
    }
    return { wall_s: best, events };
  }, presetText);
  execSync('cargo build --release --bin bench', { cwd: join(root, 'wasm-core'), stdio: 'ignore' });
  // Only this preset (bench names a file's row by its path).
  const native = JSON.parse(
    execFileSync(
      join(root, 'wasm-core/target/release/bench'),
      ['--json', '--repeat', '5', join(root, `wasm-core/presets/${PRESET}.json`)],
      { encoding: 'utf8' },
    ).trim(),
  );
  const ratio = wasm.wall_s / native.wall_s;
  console.log(`  engine on ${PRESET} (${native.sim_s} simulated s, ${wasm.events} events), best of 5:`);
  console.log(
    `    native ${(native.wall_s * 1e3).toFixed(0)} ms · wasm in Chromium ${(wasm.wall_s * 1e3).toFixed(0)} ms (${Math.round(wasm.events / wasm.wall_s)} events/s)`,
  );
  console.log(
    `  budget wasm in Chromium within 1.5x of native: ${ratio.toFixed(2)}x (${ratio <= 1.5 ? 'holds' : 'NOT met'})`,
  );
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(() => resolve()));
}
