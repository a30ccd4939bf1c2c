// Compare partners: the same scenario with one difference (the Wasted Cores
// bugs on or off), or another preset. Scenario text stays text: the partner
// is built from the parsed scenario with one field changed.
import { presetJson } from '../engine/engine';
import type { PresetInfo } from '../engine/types';
import type { Translate } from '../i18n/i18n';

/** `scenario`: the lab's scenario as it is, simulated (beside a real trace of it). */
export type PartnerKind =
  { kind: 'bugs'; bugs: 'linux-4.1' | 'linux-4.1-fixed' } | { kind: 'preset'; name: string } | { kind: 'scenario' };

export function partnerLabel(p: PartnerKind, presets: readonly PresetInfo[], t: Translate): string {
  if (p.kind === 'bugs') return t(p.bugs === 'linux-4.1-fixed' ? 'cmp.bugsFixed' : 'cmp.bugsOn');
  if (p.kind === 'scenario') return t('trace.cmpScenario');
  return presets.find((x) => x.name === p.name)?.title ?? p.name;
}

/** The partner's scenario JSON; throws if the primary's is not JSON. */
export function partnerScenario(p: PartnerKind, primaryJson: string): string {
  if (p.kind === 'preset') return presetJson(p.name);
  if (p.kind === 'scenario') return primaryJson;
  const s = JSON.parse(primaryJson) as Record<string, unknown>;
  s.bugs = p.bugs;
  s.name = `${typeof s.name === 'string' ? s.name : 'scenario'} (${p.bugs})`;
  return JSON.stringify(s);
}

/** Encodes a partner for a <select> value, and back. */
export function partnerValue(p: PartnerKind | null): string {
  if (!p) return '';
  if (p.kind === 'scenario') return 'scenario';
  return p.kind === 'bugs' ? `bugs:${p.bugs}` : `preset:${p.name}`;
}

export function parsePartner(v: string): PartnerKind | null {
  if (v === 'bugs:linux-4.1' || v === 'bugs:linux-4.1-fixed')
    return { kind: 'bugs', bugs: v.slice(5) as 'linux-4.1' | 'linux-4.1-fixed' };
  if (v.startsWith('preset:')) return { kind: 'preset', name: v.slice(7) };
  if (v === 'scenario') return { kind: 'scenario' };
  return null;
}
