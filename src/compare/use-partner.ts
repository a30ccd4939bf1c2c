// The compare partner: a second simulation in the engine worker, kept on the
// primary's clock by the worker itself — every state change of the primary
// brings the partner to the same simulated time, forward by running, backward
// by its own exact rewind. Here: which partner, its name, and its error.
import { useCallback, useRef, useState } from 'react';
import { partnerScenario, type PartnerKind } from './variants';
import type { LabEngine } from '../stores/use-lab-engine';
import { useLatest } from '../stores/use-latest';

export function usePartner(engine: LabEngine) {
  const kindRef = useRef<PartnerKind | null>(null);
  const [kind, setKind] = useState<PartnerKind | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const engineRef = useLatest(engine);

  /** (Re)builds the partner of `kind` for the primary scenario; null removes it. */
  const build = useCallback(
    async (k: PartnerKind | null, primaryJson: string): Promise<void> => {
      kindRef.current = k;
      setKind(k);
      setError(null);
      try {
        const json = k ? partnerScenario(k, primaryJson) : null;
        await engineRef.current.setPartner(json);
        if (json !== null) setName(String((JSON.parse(json) as { name?: unknown }).name ?? ''));
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        // The worker dropped the old partner before trying the new one.
        await engineRef.current.refresh();
      }
    },
    [engineRef],
  );

  return { kindRef, kind, name, error, build };
}
