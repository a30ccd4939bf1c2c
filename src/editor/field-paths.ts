// Field paths ⇄ form fields. A form field is named by the JSON path of the
// value it edits (`processes[0].nice`, `machine.distance[1][2]`), the very
// path the engine names in its messages; a message about a part the form
// has no input for (a program step, an unknown key) goes to the nearest
// enclosing field, row or section (`processes[0].program`, `processes[0]`).
import { FORM_KEYS, fromScenario, type FormModel } from './scenario-form';
import type { Problem } from '../engine/generated/engine';

type Segment = string | number;

/** `processes[0].program[1].run_us` → ['processes', 0, 'program', 1, 'run_us']. */
export function segments(path: string): Segment[] {
  const out: Segment[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function joinPath(segs: Segment[]): string {
  return segs.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Every field, row and section of the form that can carry a message: the form's keys (`FORM_KEYS`) at their paths. */
export function fieldIds(f: FormModel): Set<string> {
  const ids = new Set<string>(['scenario']);
  const under = (prefix: string, keys: readonly string[]) => {
    for (const k of keys) ids.add(prefix + k);
  };
  under('', FORM_KEYS.scenario);
  under('machine.', FORM_KEYS.machine);
  f.machine.distance?.forEach((row, i) => row.forEach((_, j) => ids.add(`machine.distance[${i}][${j}]`)));
  under('policy.', FORM_KEYS.policy);
  under('policy.tunables.', FORM_KEYS.tunables);
  under('policy.features.', FORM_KEYS.features);
  under('bugs.', FORM_KEYS.bug_switches);
  under('sanity_checker.', FORM_KEYS.sanity_checker);
  under('costs.', FORM_KEYS.costs);
  const rowsOf = (list: unknown[], name: string, fields: readonly string[]) =>
    list.forEach((_, i) => {
      ids.add(`${name}[${i}]`);
      under(`${name}[${i}].`, fields);
    });
  rowsOf(f.cgroups, 'cgroups', FORM_KEYS.cgroup);
  rowsOf(f.processes, 'processes', FORM_KEYS.process);
  rowsOf(f.events, 'events', FORM_KEYS.event);
  return ids;
}

/** A set of field ids, or anything that can answer whether an id is one. */
export interface FieldSet {
  has(id: string): boolean;
}

/** The ids of the form without its rows or distance cells (they do not depend on the model). */
const FIXED = fieldIds(fromScenario({}));
const ROW_FIELDS: Record<string, readonly string[]> = {
  cgroups: FORM_KEYS.cgroup,
  processes: FORM_KEYS.process,
  events: FORM_KEYS.event,
};

/**
 * The same set as `fieldIds(f)`, answered from the model's shape instead of
 * listed: 10,000 processes would make 130,000 ids on every edit.
 */
export function formFields(f: FormModel): FieldSet {
  return {
    has(id: string): boolean {
      if (FIXED.has(id)) return true;
      const row = /^(cgroups|processes|events)\[(\d+)\](?:\.(\w+))?$/.exec(id);
      if (row) {
        const [, table, i, key] = row;
        return (
          Number(i) < (f[table as 'cgroups' | 'processes' | 'events'] as unknown[]).length &&
          (key === undefined || ROW_FIELDS[table].includes(key))
        );
      }
      const cell = /^machine\.distance\[(\d+)\]\[(\d+)\]$/.exec(id);
      return cell !== null && Number(cell[2]) < (f.machine.distance?.[Number(cell[1])]?.length ?? 0);
    },
  };
}

/** The form field that shows a message about `path`: the longest enclosing field, else 'scenario'. */
export function fieldOf(path: string, ids: FieldSet): string {
  const segs = segments(path);
  for (let n = segs.length; n > 0; n--) {
    const id = joinPath(segs.slice(0, n));
    if (ids.has(id)) return id;
  }
  return 'scenario';
}

/** One problem of a scenario, as the engine's `validateScenario` lists them. */
export type { Problem };

/** Problems grouped by the form field that shows them. */
export function problemsByField(problems: Problem[], ids: FieldSet): Map<string, Problem[]> {
  const out = new Map<string, Problem[]>();
  for (const p of problems) {
    const id = fieldOf(p.path, ids);
    const list = out.get(id);
    if (list) list.push(p);
    else out.set(id, [p]);
  }
  return out;
}

/** The messages of one table row: its fields' and the row's own, by field id. */
export type RowProblems = ReadonlyMap<string, Problem[]>;

/** A table's messages row by row (`processes[3].nice` → row 3), so a row is given only its own. */
export function problemsByRow(byField: Map<string, Problem[]>, table: string): Map<number, RowProblems> {
  const out = new Map<number, Map<string, Problem[]>>();
  const prefix = `${table}[`;
  for (const [id, list] of byField) {
    if (!id.startsWith(prefix)) continue;
    const i = Number(id.slice(prefix.length, id.indexOf(']')));
    let row = out.get(i);
    if (!row) out.set(i, (row = new Map<string, Problem[]>()));
    row.set(id, list);
  }
  return out;
}

/** Where a field id lives in the form model, where the two differ. */
function modelPath(id: string): Segment[] {
  const s = segments(id);
  if (s[0] === 'bugs') return s.length === 1 ? ['bugs', 'profile'] : ['bugs', 'switches', ...s.slice(1)];
  if (s[0] === 'sanity_checker' && s.length === 1) return ['sanity_checker', 'mode'];
  return s;
}

/** The text of a form field. */
export function getField(f: FormModel, id: string): string {
  let v: unknown = f;
  for (const s of modelPath(id)) v = (v as Record<Segment, unknown> | undefined)?.[s];
  return typeof v === 'string' ? v : '';
}

/** A new model with one field set (copies only the objects on the way). */
export function setField(f: FormModel, id: string, value: string): FormModel {
  const path = modelPath(id);
  const put = (node: unknown, i: number): unknown => {
    if (i === path.length) return value;
    const key = path[i];
    const copy = Array.isArray(node) ? [...(node as unknown[])] : { ...(node as Record<string, unknown>) };
    (copy as Record<Segment, unknown>)[key] = put((node as Record<Segment, unknown>)[key], i + 1);
    return copy;
  };
  return put(f, 0) as FormModel;
}
