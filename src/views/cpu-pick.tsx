// The picker of the CPU whose runqueue the page shows. On a small machine each
// option says how many tasks that CPU has runnable, so a glance at the list
// finds a busy or an idle one. Past COUNTS_UP_TO CPUs that list would be a
// thousand options rewritten on every frame while nobody looks at them (the
// main thread's largest cost at 1,024 CPUs, issue 16): there the options name
// the CPUs alone, grouped by node and built once per machine, and the picked
// CPU's count stands beside the list.
import { memo, useMemo } from 'react';
import type { CpuPlace, CpuView } from '../engine/types';
import { useT } from '../i18n/i18n';

/** Up to this many CPUs the options carry their runnable counts. */
export const COUNTS_UP_TO = 64;

interface Props {
  cpus: CpuView[];
  places: CpuPlace[];
  picked: CpuView;
  onPick: (cpu: number) => void;
}

export function CpuPick({ cpus, places, picked, onPick }: Props) {
  const t = useT();
  const counted = cpus.length <= COUNTS_UP_TO;
  return (
    <label className="cpu-pick">
      {t('rq.pick')}{' '}
      <select value={picked.cpu} onChange={(e) => onPick(Number(e.target.value))}>
        {counted ? (
          cpus.map((c) => (
            <option key={c.cpu} value={c.cpu}>
              {t('rq.pickOption', { cpu: c.cpu, n: c.nr_running })}
            </option>
          ))
        ) : (
          <NodeOptions places={places} />
        )}
      </select>
      {!counted && <span className="meta"> {t('rq.pickCount', { n: picked.nr_running })}</span>}
    </label>
  );
}

/** The CPUs by node, the same elements from frame to frame: React leaves them alone. */
const NodeOptions = memo(function NodeOptions({ places }: { places: CpuPlace[] }) {
  const t = useT();
  const byNode = useMemo(() => {
    const nodes: CpuPlace[][] = [];
    for (const p of places) (nodes[p.node] ??= []).push(p);
    return nodes;
  }, [places]);
  return byNode.map((members, node) => (
    <optgroup key={node} label={t('rq.pickNode', { node })}>
      {members.map((p) => (
        <option key={p.cpu} value={p.cpu}>
          {p.cpu}
        </option>
      ))}
    </optgroup>
  ));
});
