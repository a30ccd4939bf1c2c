// The header's first row: the preset, the compare partner, the editor, the
// scenario and trace files, the library.
import { presetJson } from '../engine/engine';
import type { PresetInfo } from '../engine/types';
import {
  KERNELS,
  isKernel,
  kernelOf,
  parsePartner,
  partnerLabel,
  partnerValue,
  policyKindOf,
  withKernel,
  type PartnerKind,
} from '../compare/variants';
import { useLang, useT } from '../i18n/i18n';
import { PRESET_NOTES } from '../library/preset-notes';
import { useStore } from '../stores/store';
import { JsonFileButton } from '../views/json-file-button';
import { TraceOpenButton } from '../trace/trace-open';
import { useLab } from './context';

/** A preset's title in the interface language (the library's), else the engine's. */
export function usePresetTitle(): (p: PresetInfo) => string {
  const [lang] = useLang();
  return (p) => (Object.hasOwn(PRESET_NOTES, p.name) ? PRESET_NOTES[p.name].title[lang] : p.title);
}

export function ScenarioPick() {
  const lab = useLab();
  const t = useT();
  const presetTitle = usePresetTitle();
  const name = useStore(lab.scenario, (s) => s.name);
  const trace = useStore(lab.scenario, (s) => s.trace);
  const partner = useStore(lab.partner.store, (s) => s.kind);
  const json = useStore(lab.scenario, (s) => s.json);
  const kernel = kernelOf(json);
  // Today's eevdf on 4.1: EEVDF's pick over 4.1's balancer and load tracking, a kernel that never shipped.
  const eevdfMix = kernel === '4.1' && policyKindOf(json) === 'eevdf';
  const { presets } = lab;
  const isPreset = presets.some((p) => p.name === name);
  return (
    <div className="top-row">
      <div className="scenario-pick">
        <select
          aria-label={t('aria.preset')}
          data-testid="preset-pick"
          value={isPreset ? name : ''}
          onChange={(e) => void lab.load(presetJson(e.target.value))}
        >
          {!isPreset && <option value="">{t('app.customScenario')}</option>}
          {presets.map((p) => (
            <option key={p.name} value={p.name}>
              {presetTitle(p)}
            </option>
          ))}
        </select>
        <label className="kernel-pick">
          {t('app.kernel')}{' '}
          <select
            aria-label={t('aria.kernel')}
            data-testid="kernel-pick"
            value={kernel}
            disabled={trace !== null}
            onChange={(e) => isKernel(e.target.value) && void lab.load(withKernel(json, e.target.value))}
          >
            {KERNELS.map((k) => (
              <option key={k} value={k}>
                {k === '4.1' && eevdfMix ? t('app.kernelMix') : k}
              </option>
            ))}
          </select>
        </label>
        <label className="compare-pick">
          {t('app.compareWith')}{' '}
          <select
            aria-label={t('aria.compareWith')}
            data-testid="compare-pick"
            value={partnerValue(partner)}
            onChange={(e) => void lab.choosePartner(parsePartner(e.target.value))}
          >
            <option value="">{t('app.compareNothing')}</option>
            {trace && (
              <option value="scenario">
                {t('trace.cmpScenario')}: {name}
              </option>
            )}
            {KERNELS.filter((k) => k !== kernel).map((k) => (
              <option key={k} value={`kernel:${k}`}>
                {t('cmp.onKernel', { kernel: k })}
              </option>
            ))}
            {(['bugs:linux-4.1-fixed', 'bugs:linux-4.1'] as const).map((v) => (
              <option key={v} value={v}>
                {partnerLabel(parsePartner(v) as PartnerKind, presets, t)}
              </option>
            ))}
            {presets.map((p) => (
              <option key={p.name} value={`preset:${p.name}`}>
                {presetTitle(p)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="file" data-testid="open-editor" onClick={() => lab.ui.set({ editing: true })}>
          {t('editor.open')}
        </button>
        <JsonFileButton label={t('app.openScenario')} onFile={(f) => lab.openFile(f, t)} testId="open-scenario" />
        <TraceOpenButton onFile={(f) => lab.openTrace(f, t)} />
      </div>
      <button className="library-button" data-testid="library-button" onClick={() => lab.ui.set({ library: true })}>
        {t('lib.button')}
      </button>
    </div>
  );
}
