// The processes as a table: one row each (name, threads, program template or
// own steps, nice, session, cgroup and its identity, affinity, start time,
// EEVDF slice, job pool), rows added, duplicated and removed.
import { Fragment } from 'react';
import { useT } from '../i18n/i18n';
import { Input, Messages, Section, useForm, type Option } from './field';
import { choices } from './engine-checks';
import { programSummary, steps } from './program-words';
import type { FormModel, ProcessForm } from './scenario-form';

export function blankProcess(name: string): ProcessForm {
  return { name, threads: '1', nice: '', start_ms: '', cpus: '', nodes: '', session: '', cgroup: '', slice_us: '', job_pool: '', template: 'cpu-hog', program: '', extra: {} };
}

/** A name not yet taken: proc1, proc2, … */
function freshName(m: FormModel, pattern: (n: number) => string): string {
  const taken = new Set(m.processes.map((p) => p.name));
  let n = m.processes.length + 1;
  while (taken.has(pattern(n))) n++;
  return pattern(n);
}

function withRows(m: FormModel, processes: ProcessForm[]): FormModel {
  return { ...m, processes };
}

function Head({ label, name }: { label: string; name: string }) {
  return (
    <th>
      {label}
      <br />
      <code>{name}</code>
    </th>
  );
}

function ProgramCell({ i, p }: { i: number; p: ProcessForm }) {
  const t = useT();
  const { change } = useForm();
  const templates = choices().templates;
  const own = p.template === '';
  const options: Option[] = [...templates.map((x): Option => [x.name, x.name]), ['', t('editor.pCustomProgram')]];
  const pick = (v: string) =>
    change((m) => {
      const rows = [...m.processes];
      const cur = rows[i];
      // Own steps start from the template's, so a template is a starting point.
      const steps = templates.find((x) => x.name === cur.template)?.program;
      rows[i] = v === '' ? { ...cur, template: '', program: cur.program || JSON.stringify(steps ?? [{ run_us: 1000 }]) } : { ...cur, template: v, program: '' };
      return withRows(m, rows);
    });
  return (
    <td className="ed-program">
      <select aria-label={t('editor.pProgram')} data-field={`processes[${i}].template`} value={own ? '' : p.template} onChange={(e) => pick(e.target.value)}>
        {!own && !templates.some((x) => x.name === p.template) && <option value={p.template}>{t('editor.unknownValue', { value: p.template })}</option>}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      <Messages id={`processes[${i}].template`} />
      {(own || p.program !== '') && <Input id={`processes[${i}].program`} label={t('editor.pProgram')} multiline placeholder={t('editor.pProgramHint')} />}
      <div className="ed-steps" data-testid={`steps-${i}`}>
        {own || p.program !== '' ? programSummary(p.program) : steps(templates.find((x) => x.name === p.template)?.program ?? null)}
      </div>
      <Messages id={`processes[${i}].program`} />
    </td>
  );
}

export function ProcessTable() {
  const t = useT();
  const { model, change, problemsAt } = useForm();
  const cgroupOptions: Option[] = [['', t('editor.none')], ...model.cgroups.map((g): Option => [g.name, g.name])];
  const identityOf = (name: string) => model.cgroups.find((g) => g.name === name)?.identity || 'normal';
  const cell = (i: number, key: string, label: string, width: number, placeholder?: string) => (
    <td>
      <Input id={`processes[${i}].${key}`} label={label} width={width} placeholder={placeholder} />
      <Messages id={`processes[${i}].${key}`} />
    </td>
  );
  const add = () => change((m) => withRows(m, [...m.processes, blankProcess(freshName(m, (n) => t('editor.newProcess', { n })))]));
  const duplicate = (i: number) =>
    change((m) => {
      const rows = [...m.processes];
      rows.splice(i + 1, 0, { ...rows[i], name: freshName(m, (n) => `${rows[i].name}-${n}`) });
      return withRows(m, rows);
    });
  const remove = (i: number) => change((m) => withRows(m, m.processes.filter((_, k) => k !== i)));
  return (
    <Section id="processes" title={t('editor.secProcesses')} testId="ed-processes">
      <div className="ed-table-scroll">
        <table className="ed-table">
          <thead>
            <tr>
              <Head label={t('editor.pName')} name="name" />
              <Head label={t('editor.pThreads')} name="threads" />
              <Head label={t('editor.pProgram')} name="template / program" />
              <Head label={t('editor.pNice')} name="nice" />
              <Head label={t('editor.pSession')} name="session" />
              <Head label={t('editor.pCgroup')} name="cgroup" />
              <Head label={t('editor.pCpus')} name="cpus" />
              <Head label={t('editor.pNodes')} name="nodes" />
              <Head label={`${t('editor.pStart')} (ms)`} name="start_ms" />
              <Head label={`${t('editor.pSlice')} (ms)`} name="slice_us" />
              <Head label={t('editor.pJobPool')} name="job_pool" />
              <th>{t('editor.pActions')}</th>
            </tr>
          </thead>
          <tbody>
            {model.processes.map((p, i) => (
              <Fragment key={i}>
              <tr data-testid={`process-${i}`}>
                {cell(i, 'name', t('editor.pName'), 110)}
                {cell(i, 'threads', t('editor.pThreads'), 50, '1')}
                <ProgramCell i={i} p={p} />
                {cell(i, 'nice', t('editor.pNice'), 40, '0')}
                {cell(i, 'session', t('editor.pSession'), 60)}
                <td>
                  <Input id={`processes[${i}].cgroup`} label={t('editor.pCgroup')} options={cgroupOptions} />
                  {p.cgroup && <div className="ed-note">{t('editor.pIdentity', { identity: identityOf(p.cgroup) })}</div>}
                  <Messages id={`processes[${i}].cgroup`} />
                </td>
                {cell(i, 'cpus', t('editor.pCpus'), 60)}
                {cell(i, 'nodes', t('editor.pNodes'), 50)}
                {cell(i, 'start_ms', t('editor.pStart'), 60, '0')}
                {cell(i, 'slice_us', t('editor.pSlice'), 50)}
                {cell(i, 'job_pool', t('editor.pJobPool'), 50, '0')}
                <td className="ed-actions">
                  <button type="button" onClick={() => duplicate(i)} data-testid={`duplicate-${i}`}>
                    {t('editor.duplicate')}
                  </button>
                  <button type="button" onClick={() => remove(i)} data-testid={`remove-${i}`}>
                    {t('editor.remove')}
                  </button>
                </td>
              </tr>
              {problemsAt(`processes[${i}]`).length > 0 && (
                <tr>
                  <td colSpan={12}>
                    <Messages id={`processes[${i}]`} />
                  </td>
                </tr>
              )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" className="ed-add" onClick={add} data-testid="add-process">
        + {t('editor.add')}
      </button>
    </Section>
  );
}
