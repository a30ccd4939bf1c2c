// Predict-then-reveal questions answered by the simulation itself: a copy of
// the lab's run (its exact state, put at the question's event) is
// stepped forward to the event the question is about, and the answer, the
// choices and the reason are read from the engine's records there. Nothing
// here is hard-coded: change the scenario and the answer follows.
import type { Simulation } from '../engine/engine';
import type { SimView } from '../engine/types';
import type { Translate } from '../i18n/translate';
import { balanceFocus, placementFocus } from '../views/topology/focus';
import { cpusOf } from '../views/cpuset';

export type Question =
  /** Which CPU receives the next migrated thread? */
  | { kind: 'migration-to' }
  /** Will the next load-balancing decision (by one of `cpus`, at a level named `level…`, if given) move a thread? */
  | { kind: 'balance-moves'; cpus?: number[]; level?: string }
  /** Which entity will CPU `cpu` run next? */
  | { kind: 'next-runner'; cpu: number }
  /** Which CPU will the next placement (of a task whose name starts with `task`) choose? */
  | { kind: 'placement'; task?: string };

export interface Prediction {
  choices: string[];
  answer: number;
  /** The engine's event count where the answer happens (the reveal seeks there). */
  atEvent: number;
  atNs: number;
  /** Why, in words built from the engine's records at that event. */
  reason: string;
  /** CPUs to mark on reveal. */
  cpus: number[];
}

/** Event steps a copy may take looking for the answer (a busy 64-CPU run covers about a second). */
const MAX_STEPS = 400_000;

/** Answers `q` on a copy of `sim` put at event `events` (the lab's run is left where it is). */
export function predict(sim: Simulation, events: number, q: Question, t: Translate): Prediction | null {
  const copy = sim.copy();
  try {
    copy.seekEvent(events);
    if (q.kind === 'migration-to') return migrationTo(copy, t);
    if (q.kind === 'balance-moves') return balanceMoves(copy, q, t);
    if (q.kind === 'next-runner') return nextRunner(copy, q.cpu, t);
    return placement(copy, q.task, t);
  } finally {
    copy.dispose();
  }
}

const cpuLabel = (t: Translate, n: number) => t('cls.cpu', { n });

/**
 * CPU choices: the answer, the given distractors, then an idle CPU of
 * `before` (one the decision did not look at, if any: the tempting wrong
 * answer) and a busiest one; sorted, so order gives nothing away.
 */
function cpuChoices(
  t: Translate,
  answer: number,
  others: number[],
  before: SimView,
  unseen: number[] = [],
): { choices: string[]; answer: number } {
  const set = new Set<number>([answer, ...others]);
  const online = before.cpus.filter((c) => c.online);
  const seen = new Set(unseen.length > 0 ? unseen : []);
  const idle =
    online.find((c) => c.nr_running === 0 && !set.has(c.cpu) && !seen.has(c.cpu)) ??
    online.find((c) => c.nr_running === 0 && !set.has(c.cpu));
  if (idle && set.size < 4) set.add(idle.cpu);
  const busiest = [...online].sort((a, b) => b.nr_running - a.nr_running || a.cpu - b.cpu).find((c) => !set.has(c.cpu));
  if (busiest && set.size < 4) set.add(busiest.cpu);
  for (const c of online) if (set.size < 3 && !set.has(c.cpu)) set.add(c.cpu);
  const cpus = [...set].slice(0, 4).sort((a, b) => a - b);
  return { choices: cpus.map((c) => cpuLabel(t, c)), answer: cpus.indexOf(answer) };
}

function migrationTo(copy: Simulation, t: Translate): Prediction | null {
  const before = copy.view();
  if (!copy.stepMark('migration', true)) return null;
  const now = copy.nowNs;
  const m = copy.migrations(now, 64).find((x) => x.t_ns === now) ?? copy.migrations(0, 1).at(-1);
  if (!m) return null;
  const name = copy.nameOf(m.pid);
  let why = '';
  if (m.cause === 'wakeup' || m.cause === 'fork') {
    const p = copy.placements(1)[0];
    if (p && p.t_ns === now) why = placementFocus(p, t).caption;
  } else {
    const d = copy.decisions(1, false)[0];
    if (d && d.t_ns === now) why = balanceFocus(d, t).caption;
  }
  const { choices, answer } = cpuChoices(t, m.to, [m.from], before);
  return {
    choices,
    answer,
    atEvent: copy.events,
    atNs: now,
    reason:
      `${t('cls.reveal.migration', { name, from: m.from, to: m.to, cause: m.cause, t: (now / 1e6).toFixed(3) })} ${why}`.trim(),
    cpus: [m.from, m.to],
  };
}

/** Decisions searched for one by the given CPUs. */
const MAX_DECISIONS = 20_000;

function balanceMoves(
  copy: Simulation,
  { cpus, level }: { cpus?: number[]; level?: string },
  t: Translate,
): Prediction | null {
  let d = undefined;
  for (let i = 0; i < MAX_DECISIONS && !d; i++) {
    if (!copy.stepMark('decision', true)) return null;
    const last = copy.decisions(1, true)[0];
    if (last && (!cpus || cpus.includes(last.cpu)) && (!level || last.level.startsWith(level))) d = last;
  }
  if (!d) return null;
  return {
    choices: [t('cls.yes'), t('cls.no')],
    answer: d.outcome === 'moved' ? 0 : 1,
    atEvent: copy.events,
    atNs: copy.nowNs,
    reason: balanceFocus(d, t).caption,
    cpus: [d.cpu, ...(d.busiest_cpu === null ? [] : [d.busiest_cpu])],
  };
}

function nextRunner(copy: Simulation, cpu: number, t: Translate): Prediction | null {
  const first0 = copy.frame(cpu);
  const first = first0.cpus[cpu];
  if (!first) return null;
  const names = new Map<number, string>();
  if (first.curr !== null) names.set(first.curr, copy.nameOf(first.curr));
  for (const n of first.tree.nodes) names.set(n.pid, n.name);
  for (let i = 0; i < MAX_STEPS; i++) {
    if (!copy.stepEvent()) return null;
    const c = copy.frame(cpu).cpus[cpu];
    if (c.curr === null || c.curr === first.curr) continue;
    const name = copy.nameOf(c.curr);
    const task = copy.tasks().find((x) => x.pid === c.curr);
    const waiting = [...c.tree.nodes].sort((a, b) => a.vruntime - b.vruntime);
    const others = waiting.map((n) => `${n.name} ${(n.vruntime / 1e6).toFixed(3)}`).join(', ') || t('cls.nobody');
    const v = task ? (task.vruntime / 1e6).toFixed(3) : '?';
    const smallest = task !== undefined && waiting.every((n) => n.vruntime >= task.vruntime);
    const pool = [...names.values()];
    if (!pool.includes(name)) pool.push(name);
    // Few candidates on this CPU: what the other CPUs run makes the other choices.
    for (const o of first0.cpus)
      if (pool.length < 4 && o.curr !== null && !pool.includes(copy.nameOf(o.curr))) pool.push(copy.nameOf(o.curr));
    // Six at most, the answer among them, then sorted: the order gives nothing away.
    const choices = [name, ...new Set(pool.filter((n) => n !== name))].slice(0, 6).sort();
    return {
      choices,
      answer: choices.indexOf(name),
      atEvent: copy.events,
      atNs: copy.nowNs,
      reason: t(smallest ? 'cls.reveal.runnerSmallest' : 'cls.reveal.runnerNotSmallest', {
        name,
        cpu,
        t: (copy.nowNs / 1e6).toFixed(3),
        v,
        others,
      }),
      cpus: [cpu],
    };
  }
  return null;
}

function placement(copy: Simulation, task: string | undefined, t: Translate): Prediction | null {
  const last = copy.placements(1)[0];
  let before = copy.view();
  for (let i = 0; i < MAX_STEPS; i++) {
    // The state just before the placement, for the idle-CPU distractor.
    if (i % 64 === 0) before = copy.view();
    if (!copy.stepEvent()) return null;
    const p = copy.placements(1)[0];
    if (!p || (last && p.t_ns === last.t_ns && p.pid === last.pid)) continue;
    if (task && !p.task.startsWith(task)) continue;
    const { choices, answer } = cpuChoices(t, p.chosen_cpu, [p.prev_cpu, p.waker_cpu], before, cpusOf(p.considered));
    return {
      choices,
      answer,
      atEvent: copy.events,
      atNs: copy.nowNs,
      reason: placementFocus(p, t).caption,
      cpus: [p.chosen_cpu],
    };
  }
  return null;
}
