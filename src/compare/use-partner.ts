// The compare partner: a second simulation kept on the primary's clock.
// Every state change of the primary brings the partner to the same simulated
// time — forward by running, backward by its own exact rewind.
import { useCallback, useRef, useState } from 'react';
import { Simulation } from '../engine/engine';
import { partnerScenario, type PartnerKind } from './variants';

export function usePartner() {
  const simRef = useRef<Simulation | null>(null);
  const kindRef = useRef<PartnerKind | null>(null);
  const [kind, setKind] = useState<PartnerKind | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** Counts builds, so views keyed on the partner refresh when it is rebuilt under the same name. */
  const [builds, setBuilds] = useState(0);

  /** (Re)builds the partner of `kind` for the primary scenario; null removes it. */
  const build = useCallback((k: PartnerKind | null, primaryJson: string) => {
    simRef.current?.dispose();
    simRef.current = null;
    setBuilds((n) => n + 1);
    kindRef.current = k;
    setKind(k);
    setError(null);
    if (!k) return;
    try {
      const json = partnerScenario(k, primaryJson);
      simRef.current = new Simulation(json);
      setName(String((JSON.parse(json) as { name?: unknown }).name ?? ''));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);

  /** Brings the partner to simulated time `nowNs` (its own end at most). */
  const sync = useCallback((nowNs: number) => {
    const p = simRef.current;
    if (p && p.nowNs !== Math.min(nowNs, p.durationNs)) p.seekTime(nowNs);
  }, []);

  return { simRef, kindRef, kind, name, error, build, sync, builds };
}
