// The scenario text of a form model, written incrementally: each process row's
// text is kept by the row object it came from, and an edit copies only the row
// it changes (setField), so writing a 10,000-process scenario after one edit
// stringifies one row and joins the rest. The text is exactly scenarioText's
// (tests/unit/editor-large.test.ts compares them).
import type { FormModel, ProcessForm } from './scenario-form';
import { scenarioText, toScenario, writeProcess } from './form-to-scenario';

/** A writer with its own cache of row texts (one per editor). */
export function scenarioWriter(): (f: FormModel) => string {
  const rows = new WeakMap<ProcessForm, string>();
  const marker = `schedlab:processes:${Math.random().toString(36).slice(2)}`;
  const quoted = JSON.stringify(marker);
  const rowText = (p: ProcessForm): string => {
    let t = rows.get(p);
    if (t === undefined) rows.set(p, (t = `    ${JSON.stringify(writeProcess(p), null, 2).replace(/\n/g, '\n    ')}`));
    return t;
  };
  return (f) => {
    // A file whose "processes" is not a list keeps it in extra: written whole.
    if (f.processes.length === 0 || Object.hasOwn(f.extra, 'processes')) return scenarioText(f);
    const shell = toScenario({ ...f, processes: [] });
    shell.processes = marker;
    const text = JSON.stringify(shell, null, 2);
    const at = text.indexOf(quoted);
    if (at < 0 || text.lastIndexOf(quoted) !== at) return scenarioText(f);
    return `${text.slice(0, at)}[\n${f.processes.map(rowText).join(',\n')}\n  ]${text.slice(at + quoted.length)}\n`;
  };
}
