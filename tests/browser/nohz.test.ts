// Tickless idle in Chromium: an idle CPU of a NO_HZ machine says its tick is
// stopped and shows the load history (cpu_load[]) its last busy tick left;
// a busy CPU ticks and says nothing of the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

interface Cpu {
  cpu: number;
  curr: number | null;
  tick_stopped: boolean;
}
interface View {
  cpus: Cpu[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const select = (cpu: number) => lab.page.locator(`[data-testid=cpu-cell][data-cpu="${cpu}"]`).first().click();

describe('tickless idle', () => {
  it('marks an idle CPU tick-stopped with its cpu_load[], and a busy one not', async () => {
    // make starts at 50 ms: at 30 ms only R1 and R2 run on the 64 CPUs.
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 30e6);
    await lab.page.getByTestId('btn-step').click();
    const v = await hook<View>(lab.page, 'view');
    const stopped = v.cpus.filter((c) => c.tick_stopped);
    expect(stopped.length).toBeGreaterThanOrEqual(60);
    const busy = v.cpus.find((c) => c.curr !== null);
    expect(busy?.tick_stopped).toBe(false);

    await select(stopped[0].cpu);
    await lab.page.getByTestId('tick-stopped').waitFor();
    const history = await settled(
      async () => (await lab.page.getByTestId('cpu-load').textContent()) ?? '',
      (t) => t.split(' ').length === 5,
    );
    expect(history.split(' ').every((x) => /^\d+$/.test(x))).toBe(true);
    await lab.page.locator('.rbtree-panel').screenshot({ path: join(shots, 'nohz-idle-cpu.png') });

    await select(busy?.cpu ?? 0);
    expect(
      await settled(
        () => lab.page.getByTestId('tick-stopped').count(),
        (n) => n === 0,
      ),
    ).toBe(0);
  });
});
