// Compare mode on the page: the partner's refusal, or the two runs side by
// side on one clock (compare/compare-panel.tsx).
import { ComparePanel } from '../compare/compare-panel';
import { useT } from '../i18n/i18n';
import { ProblemText } from '../views/problem-text';
import type { LabData } from '../stores/lab-engine';
import { useStore } from '../stores/store';
import { useLab } from './context';

export function LabCompare({ data }: { data: LabData }) {
  const lab = useLab();
  const t = useT();
  const { name: partnerName, error } = useStore(lab.partner.store, (s) => s);
  const { name, trace } = useStore(lab.scenario, (s) => s);
  const pData = data.partner;
  return (
    <>
      {error !== null && (
        <div className="error" data-testid="compare-error" role="alert">
          <b>{t('app.partnerCannotRun')}</b>
          <ProblemText problem={error} />
        </div>
      )}
      {data.report && pData?.report && (
        <ComparePanel
          nameA={trace ? trace.info.name : name}
          loadTitleA={trace ? t('trace.loadTitle') : undefined}
          nameB={partnerName}
          reportA={data.report}
          reportB={pData.report}
          historyA={data.history}
          historyB={pData.history}
          cpusA={data.topology.cpus}
          cpusB={pData.topology.cpus}
          nowNs={data.frame.view.now_ns}
          durationA={data.frame.durationNs}
          durationB={pData.frame.durationNs}
          onSeek={(ns) => lab.seekTime(ns, t)}
          machines={{ a: data, b: pData }}
        />
      )}
    </>
  );
}
