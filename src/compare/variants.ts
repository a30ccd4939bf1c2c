// Compare partners: the same scenario with one difference (the Wasted Cores
// bugs on or off, or the other kernel generation), or another preset. Scenario text stays text: the partner
// is built from the parsed scenario with one field changed.
import { presetJson } from '../engine/engine';
import type { PresetInfo } from '../engine/types';
import type { Translate } from '../i18n/i18n';

/** `scenario`: the lab's scenario as it is, simulated (beside a real trace of it). */
export type PartnerKind =
  | { kind: 'bugs'; bugs: 'linux-4.1' | 'linux-4.1-fixed' }
  | { kind: 'kernel'; kernel: Kernel }
  | { kind: 'preset'; name: string }
  | { kind: 'scenario' };

/** The kernel generations a scenario may name (`kernel`; absent = 4.1). */
export const KERNELS = ['4.1', '6.12'] as const;
export type Kernel = (typeof KERNELS)[number];

export function isKernel(v: unknown): v is Kernel {
  return typeof v === 'string' && (KERNELS as readonly string[]).includes(v);
}

/** The kernel a scenario's JSON names (4.1 when absent or unreadable). */
export function kernelOf(json: string): Kernel {
  try {
    const k = (JSON.parse(json) as Record<string, unknown>).kernel;
    return isKernel(k) ? k : '4.1';
  } catch {
    return '4.1';
  }
}

/** The policy kind a scenario's JSON names ('' when absent or unreadable). */
export function policyKindOf(json: string): string {
  try {
    const p = (JSON.parse(json) as Record<string, unknown>).policy;
    const k = p !== null && typeof p === 'object' ? (p as Record<string, unknown>).kind : undefined;
    return typeof k === 'string' ? k : '';
  } catch {
    return '';
  }
}

/**
 * The scenario on another kernel generation. Moving to 6.12 drops `bugs`:
 * the paper's switches are 4.1 and its patches, and 6.12 runs as it ships
 * (the engine refuses what else belongs to 4.1, with the reason).
 */
export function withKernel(json: string, kernel: Kernel): string {
  const s = JSON.parse(json) as Record<string, unknown>;
  if (kernel === '4.1') delete s.kernel;
  else {
    s.kernel = kernel;
    delete s.bugs;
  }
  return JSON.stringify(s, null, 2);
}

export function partnerLabel(p: PartnerKind, presets: readonly PresetInfo[], t: Translate): string {
  if (p.kind === 'bugs') return t(p.bugs === 'linux-4.1-fixed' ? 'cmp.bugsFixed' : 'cmp.bugsOn');
  if (p.kind === 'kernel') return t('cmp.onKernel', { kernel: p.kernel });
  if (p.kind === 'scenario') return t('trace.cmpScenario');
  return presets.find((x) => x.name === p.name)?.title ?? p.name;
}

/** The partner's scenario JSON; throws if the primary's is not JSON. */
export function partnerScenario(p: PartnerKind, primaryJson: string): string {
  if (p.kind === 'preset') return presetJson(p.name);
  if (p.kind === 'scenario') return primaryJson;
  if (p.kind === 'kernel') {
    const s = JSON.parse(withKernel(primaryJson, p.kernel)) as Record<string, unknown>;
    s.name = `${typeof s.name === 'string' ? s.name : 'scenario'} (Linux ${p.kernel})`;
    return JSON.stringify(s);
  }
  const s = JSON.parse(primaryJson) as Record<string, unknown>;
  s.bugs = p.bugs;
  s.name = `${typeof s.name === 'string' ? s.name : 'scenario'} (${p.bugs})`;
  return JSON.stringify(s);
}

/** Encodes a partner for a <select> value, and back. */
export function partnerValue(p: PartnerKind | null): string {
  if (!p) return '';
  if (p.kind === 'scenario') return 'scenario';
  if (p.kind === 'kernel') return `kernel:${p.kernel}`;
  return p.kind === 'bugs' ? `bugs:${p.bugs}` : `preset:${p.name}`;
}

export function parsePartner(v: string): PartnerKind | null {
  if (v === 'bugs:linux-4.1' || v === 'bugs:linux-4.1-fixed')
    return { kind: 'bugs', bugs: v.slice(5) as 'linux-4.1' | 'linux-4.1-fixed' };
  if (v.startsWith('kernel:') && isKernel(v.slice(7))) return { kind: 'kernel', kernel: v.slice(7) as Kernel };
  if (v.startsWith('preset:')) return { kind: 'preset', name: v.slice(7) };
  if (v === 'scenario') return { kind: 'scenario' };
  return null;
}
