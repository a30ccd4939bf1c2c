// The lab's page: a composition of the header, what sits above the views and
// the views themselves, over the lab's stores and actions (lab.ts, given by
// context). The simulation lives in the engine worker; the page changes its
// state only through the engine's commands and draws the frames the worker
// reads after each of them.
import { useMemo } from 'react';
import { useT } from '../i18n/i18n';
import { useShare } from '../share/use-share';
import { FileDrop } from '../trace/trace-open';
import { useLab } from './context';
import { Header } from './header';
import { LabHead } from './lab-head';
import { LabView } from './lab-view';
import { shareHost } from './share-host';
import { Shell } from './shell';

export function App() {
  const lab = useLab();
  const t = useT();
  const share = useShare(useMemo(() => shareHost(lab), [lab]));
  return (
    <Shell>
      <Header made={share.made} makeLink={share.makeLink} />
      <FileDrop onTrace={(f) => lab.openTrace(f, t)} onScenario={(f) => lab.openFile(f, t)} />
      <main id="lab" tabIndex={-1}>
        <LabHead openProblem={share.openProblem} dismissProblem={share.dismissProblem} />
        <LabView />
      </main>
    </Shell>
  );
}
