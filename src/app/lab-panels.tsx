// The views at the cursor, below the controls, drawn from the frames the
// engine worker read. The heavy groups (the machine, the runqueue, the lanes)
// each draw the frame the refresh scheduler gave them (stores/refresh.ts: in
// turn while playing, every frame when paused); the rest draw the latest.
// Each sits in a Seen part (seen.tsx): while playing, what is scrolled out of
// view is neither drawn nor read.
import { memo, useCallback } from 'react';
import { MAX_ROWS, PLAYING_ROWS } from '../engine/frame';
import { useT } from '../i18n/i18n';
import type { LabData } from '../stores/lab-engine';
import { useStore } from '../stores/store';
import { OnlySimulations } from '../trace/trace-banner';
import { Heatmaps } from '../views/heatmap';
import { MetricsCharts } from '../views/metrics-charts';
import { SchedstatPanel } from '../views/schedstat-panel';
import { TaskTable } from '../views/task-table';
import { useLab } from './context';
import { Seen } from './seen';
import { LanesGroup, RunqueueGroup, TopologyGroup } from './view-groups';
import type { ViolationReport } from '../engine/types';

const NO_VIOLATIONS: ViolationReport[] = [];

export const LabPanels = memo(function LabPanels({ data }: { data: LabData }) {
  const lab = useLab();
  const t = useT();
  const busy = useStore(lab.engine.store, (s) => s.playing || s.progress !== null);
  const shown = useStore(lab.engine.store, (s) => s.shown);
  const recorded = useStore(lab.scenario, (s) => s.trace !== null);
  const { frame, topology: topo } = data;
  const multi = frame.view.cpus.length > 1;
  // One callback across frames, so the heatmaps (memoised) redraw only when their history is new.
  const onSeek = useCallback((ns: number) => lab.seekTime(ns, t), [lab, t]);
  return (
    <>
      <Seen part="topology">{shown.topology && <TopologyGroup data={shown.topology} />}</Seen>
      <Seen part="runqueue">{shown.runqueue && <RunqueueGroup data={shown.runqueue} recorded={recorded} />}</Seen>
      <Seen part="lanes">{shown.lanes && <LanesGroup data={shown.lanes} />}</Seen>
      <Seen part="heatmaps">
        {data.history && (
          <Heatmaps
            history={data.history}
            cpus={topo.cpus}
            nowNs={frame.view.now_ns}
            durationNs={frame.durationNs}
            violations={data.report?.sanity_violations ?? NO_VIOLATIONS}
            onSeek={onSeek}
            loadTitle={recorded ? t('trace.loadTitle') : undefined}
          />
        )}
      </Seen>
      <Seen part="schedstat">
        {recorded ? (
          <OnlySimulations what="schedstat" />
        ) : (
          multi && frame.schedstat && <SchedstatPanel stats={frame.schedstat} />
        )}
      </Seen>
      <Seen part="charts">
        {data.report && (
          <MetricsCharts report={data.report} cdfs={data.cdfs} history={data.history} durationNs={frame.durationNs} />
        )}
      </Seen>
      <Seen part="tasks">
        {/* Fewer rows while playing: they change faster than anyone reads them. */}
        <TaskTable tasks={data.tasks} maxRows={busy ? PLAYING_ROWS : MAX_ROWS} />
      </Seen>
    </>
  );
});
