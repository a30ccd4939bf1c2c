// The app side of share links. Making one: stop, put the cursor in its
// canonical place (cursor.ts), pack scenario + view state, write the link to
// the address bar and try the clipboard. Opening one (on load and on
// hashchange): unpack, let the engine validate the scenario, load it, restore
// partner, CPU, colouring and lesson, then replay to the cursor in slices. A
// link that cannot be opened leaves an explanation and the default scenario.
import { lessonById } from '../classroom/lessons';
import { useCallback, useEffect, useState } from 'react';
import { listPresets } from '../engine/engine';
import type { LabEngine } from '../stores/lab-engine';
import type { PartnerKind } from '../compare/variants';
import { parsePartner, partnerValue } from '../compare/variants';
import type { ColourBy } from '../views/topology/topology-view';
import { useT } from '../i18n/i18n';
import { cursorOf } from './cursor';
import { decodeShare, encodeShare, type LessonStep, type ShareProblem } from './share-link';
import { useLatest } from '../stores/use-latest';
import type { Problem } from '../stores/problem';
import { extCommand, extJob } from '../engine/extensions';
import { CURSOR_JOB, PLACE_CURSOR } from './engine-keys';

/** What the lab lends the hook. Read through a ref, so it may be a new object every render. */
export interface ShareHost {
  engine: LabEngine;
  /** The scenario's JSON as loaded. */
  scenario: () => string;
  /** Loads a scenario: why not if it could not (the engine's message quoted), else null. */
  tryLoad: (json: string) => Promise<Problem | null>;
  /** Loads a scenario, showing the engine's message if it refused it. */
  load: (json: string) => Promise<boolean>;
  defaultScenario: () => string;
  /** What a link carries of the view, now. */
  view: () => { cpu: number; colourBy: ColourBy; partner: PartnerKind | null; lesson: LessonStep | null };
  setCpu: (cpu: number) => void;
  setColourBy: (c: ColourBy) => void;
  /** Builds the compare partner against the current scenario. */
  choosePartner: (k: PartnerKind | null) => Promise<void>;
  /** Pauses play and cancels a long run. */
  stop: () => void;
  /** The guided lesson's position, carried by links. A lesson step anchors the
   * cursor itself, so a link made at a step opens at that step's anchor. */
  setLesson: (l: LessonStep | null) => void;
  /** Puts the run at the lesson step's anchor again (after the link's scenario was loaded). */
  reanchorLesson: () => void;
}

/** A problem opening a link: the codec's, or why the scenario could not be loaded (the engine's message quoted). */
export type OpenProblem =
  ShareProblem | { code: 'scenario'; vars: { detail: Problem } } | { code: 'unknown-partner'; vars: { name: string } };

export interface MadeLink {
  url: string | null;
  problem: ShareProblem | null;
  /** true copied, false clipboard refused or missing, null not tried yet. */
  copied: boolean | null;
}

export function useShare(host: ShareHost) {
  const hostRef = useLatest(host);
  const t = useT();
  const tRef = useLatest(t);
  const [made, setMade] = useState<MadeLink | null>(null);
  const [openProblem, setOpenProblem] = useState<OpenProblem | null>(null);

  const makeLink = useCallback(async () => {
    const h = hostRef.current;
    const frame = h.engine.data?.frame;
    if (!frame) return;
    h.stop();
    // The sender sees exactly what a receiver will: the canonical state at this cursor.
    const cursor = cursorOf(frame);
    await h.engine.command(extCommand(PLACE_CURSOR, cursor));
    const v = h.view();
    const r = encodeShare({
      scenario: h.scenario(),
      view: { cursor, cpu: v.cpu, colourBy: v.colourBy, partner: partnerValue(v.partner), lesson: v.lesson },
    });
    if (!r.ok) return setMade({ url: null, problem: r.reason, copied: null });
    const url = `${location.href.split('#')[0]}#${r.fragment}`;
    history.replaceState(history.state, '', url);
    setMade({ url, problem: null, copied: null });
    const done = (copied: boolean) => setMade((m) => (m?.url === url ? { ...m, copied } : m));
    try {
      if (!navigator.clipboard) done(false);
      else
        navigator.clipboard.writeText(url).then(
          () => done(true),
          () => done(false),
        );
    } catch {
      done(false);
    }
  }, [hostRef]);

  const open = useCallback(
    async (fragment: string) => {
      const h = hostRef.current;
      const fail = async (p: OpenProblem) => {
        setOpenProblem(p);
        h.stop();
        h.setLesson(null);
        await h.choosePartner(null);
        await h.load(h.defaultScenario());
        // A reload should not meet the same broken link again.
        history.replaceState(history.state, '', location.href.split('#')[0]);
      };
      const d = decodeShare(fragment);
      if (!d.ok) return fail(d.reason);
      const { scenario, view } = d.state;
      const partner = parsePartner(view.partner);
      if (partner?.kind === 'preset' && !listPresets().some((p) => p.name === partner.name))
        return fail({ code: 'unknown-partner', vars: { name: partner.name } });
      h.stop();
      await h.choosePartner(null);
      // The engine is the judge of scenarios; its message names the field.
      const refused = await h.tryLoad(scenario);
      if (refused !== null) return fail({ code: 'scenario', vars: { detail: refused } });
      setOpenProblem(null);
      setMade(null);
      await h.choosePartner(partner);
      const topo = h.engine.data?.topology;
      if (!topo) return;
      h.setCpu(Math.min(view.cpu, topo.cpus.length - 1));
      h.setColourBy(view.colourBy);
      // A lesson this build does not have is dropped, not kept half-open. A
      // lesson step puts the cursor at its own anchor (one rule: the link's
      // cursor is not raced against it).
      const lesson = view.lesson && lessonById(view.lesson.id) ? view.lesson : null;
      h.setLesson(lesson);
      if (lesson) return h.reanchorLesson();
      await h.engine.job(extJob(CURSOR_JOB, view.cursor), tRef.current('share.opening'));
    },
    [hostRef, tRef],
  );

  useEffect(() => {
    if (location.hash.length > 1) void open(location.hash);
    const onHash = () => {
      if (location.hash.length > 1) void open(location.hash);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [open]);

  return {
    made,
    makeLink,
    openProblem,
    dismissProblem: useCallback(() => setOpenProblem(null), []),
    /** Opens a fragment as if it were the address's (for the test hook). */
    open,
  };
}
