// The processes as a table: one row each (name, threads, program template or
// own steps, nice, session, cgroup and its identity, affinity, start time,
// EEVDF slice, job pool), rows added, duplicated and removed. Only the rows in
// view are drawn (virtual-rows.tsx), and a row is memoised on its process and
// its own messages, so an edit re-renders the one row it changed.
import { memo, useMemo } from 'react';
import { useT } from '../i18n/i18n';
import { InputView, MessagesView, NO_PROBLEMS, Section, useEdit, useForm, type Option } from './field';
import { choices } from './engine-checks';
import { programSummary, steps } from './program-words';
import { problemsByRow, type Problem, type RowProblems } from './field-paths';
import type { FormModel, ProcessForm } from './scenario-form';
import { Spacer, useVirtualRows } from './virtual-rows';

export function blankProcess(name: string): ProcessForm {
  return {
    name,
    threads: '1',
    nice: '',
    sched_policy: '',
    rt_priority: '',
    dl_runtime_us: '',
    dl_deadline_us: '',
    dl_period_us: '',
    dl_reclaim: '',
    start_ms: '',
    cpus: '',
    nodes: '',
    session: '',
    cgroup: '',
    slice_us: '',
    job_pool: '',
    template: 'cpu-hog',
    program: '',
    extra: {},
  };
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

const COLUMNS = 18;
const NO_ROW_PROBLEMS: RowProblems = new Map();
type TextKey = Exclude<keyof ProcessForm, 'extra' | 'raw'>;

interface RowProps {
  i: number;
  p: ProcessForm;
  /** This row's messages by field id. */
  problems: RowProblems;
  cgroupOptions: Option[];
  /** The Group Identity class of the row's cgroup ('' when it has none). */
  identity: string;
}

const ProcessRow = memo(function ProcessRow({ i, p, problems, cgroupOptions, identity }: RowProps) {
  const t = useT();
  const { edit, change } = useEdit();
  const at = (id: string): Problem[] => problems.get(id) ?? NO_PROBLEMS;
  const input = (
    key: TextKey,
    label: string,
    props: { width?: number; placeholder?: string; options?: Option[]; multiline?: boolean } = {},
  ) => {
    const id = `processes[${i}].${key}`;
    return <InputView id={id} label={label} value={p[key]} problems={at(id)} edit={edit} {...props} />;
  };
  const cell = (key: TextKey, label: string, width: number, placeholder?: string) => (
    <td>
      {input(key, label, { width, placeholder })}
      <MessagesView id={`processes[${i}].${key}`} list={at(`processes[${i}].${key}`)} />
    </td>
  );
  const duplicate = () =>
    change((m) => {
      const rows = [...m.processes];
      rows.splice(i + 1, 0, { ...rows[i], name: freshName(m, (n) => `${rows[i].name}-${n}`) });
      return withRows(m, rows);
    });
  const remove = () =>
    change((m) =>
      withRows(
        m,
        m.processes.filter((_, k) => k !== i),
      ),
    );
  return (
    <>
      <tr data-testid={`process-${i}`}>
        {cell('name', t('editor.pName'), 110)}
        {cell('threads', t('editor.pThreads'), 50, '1')}
        <ProgramCell i={i} p={p} problems={problems} />
        {cell('nice', t('editor.pNice'), 40, '0')}
        {cell('sched_policy', t('editor.pPolicy'), 50, 'normal')}
        {cell('rt_priority', t('editor.pRtPriority'), 40)}
        {cell('dl_runtime_us', t('editor.pDlRuntime'), 50)}
        {cell('dl_deadline_us', t('editor.pDlDeadline'), 50)}
        {cell('dl_period_us', t('editor.pDlPeriod'), 50)}
        {cell('dl_reclaim', t('editor.pDlReclaim'), 40)}
        {cell('session', t('editor.pSession'), 60)}
        <td>
          {input('cgroup', t('editor.pCgroup'), { options: cgroupOptions })}
          {identity && <div className="ed-note">{t('editor.pIdentity', { identity })}</div>}
          <MessagesView id={`processes[${i}].cgroup`} list={at(`processes[${i}].cgroup`)} />
        </td>
        {cell('cpus', t('editor.pCpus'), 60)}
        {cell('nodes', t('editor.pNodes'), 50)}
        {cell('start_ms', t('editor.pStart'), 60, '0')}
        {cell('slice_us', t('editor.pSlice'), 50)}
        {cell('job_pool', t('editor.pJobPool'), 50, '0')}
        <td className="ed-actions">
          <button type="button" onClick={duplicate} data-testid={`duplicate-${i}`}>
            {t('editor.duplicate')}
          </button>
          <button type="button" onClick={remove} data-testid={`remove-${i}`}>
            {t('editor.remove')}
          </button>
        </td>
      </tr>
      {at(`processes[${i}]`).length > 0 && (
        <tr>
          <td colSpan={COLUMNS}>
            <MessagesView id={`processes[${i}]`} list={at(`processes[${i}]`)} />
          </td>
        </tr>
      )}
    </>
  );
});

function ProgramCell({ i, p, problems }: { i: number; p: ProcessForm; problems: RowProblems }) {
  const t = useT();
  const { edit, change } = useEdit();
  const templates = choices().templates;
  const own = p.template === '';
  const options: Option[] = [...templates.map((x): Option => [x.name, x.name]), ['', t('editor.pCustomProgram')]];
  const templateId = `processes[${i}].template`;
  const programId = `processes[${i}].program`;
  const pick = (v: string) =>
    change((m) => {
      const rows = [...m.processes];
      const cur = rows[i];
      // Own steps start from the template's, so a template is a starting point.
      const steps = templates.find((x) => x.name === cur.template)?.program;
      rows[i] =
        v === ''
          ? { ...cur, template: '', program: cur.program || JSON.stringify(steps ?? [{ run_us: 1000 }]) }
          : { ...cur, template: v, program: '' };
      return withRows(m, rows);
    });
  return (
    <td className="ed-program">
      <select
        aria-label={t('editor.pProgram')}
        data-field={templateId}
        value={own ? '' : p.template}
        onChange={(e) => pick(e.target.value)}
      >
        {!own && !templates.some((x) => x.name === p.template) && (
          <option value={p.template}>{t('editor.unknownValue', { value: p.template.slice(0, 200) })}</option>
        )}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      <MessagesView id={templateId} list={problems.get(templateId) ?? NO_PROBLEMS} />
      {(own || p.program !== '') && (
        <InputView
          id={programId}
          label={t('editor.pProgram')}
          multiline
          placeholder={t('editor.pProgramHint')}
          value={p.program}
          problems={problems.get(programId) ?? NO_PROBLEMS}
          edit={edit}
        />
      )}
      <div className="ed-steps" data-testid={`steps-${i}`}>
        {own || p.program !== ''
          ? programSummary(p.program)
          : steps(templates.find((x) => x.name === p.template)?.program ?? null)}
      </div>
      <MessagesView id={programId} list={problems.get(programId) ?? NO_PROBLEMS} />
    </td>
  );
}

export function ProcessTable() {
  const t = useT();
  const { model, change, byField } = useForm();
  const rows = model.processes;
  const rowProblems = useMemo(() => problemsByRow(byField, 'processes'), [byField]);
  const cgroupOptions = useMemo<Option[]>(
    () => [['', t('editor.none')], ...model.cgroups.map((g): Option => [g.name, g.name])],
    [model.cgroups, t],
  );
  const identities = useMemo(() => {
    const out = new Map<string, string>();
    for (const g of model.cgroups) if (!out.has(g.name)) out.set(g.name, g.identity || 'normal');
    return out;
  }, [model.cgroups]);
  // A row with its own steps has a textarea under its template picker: about three times as tall.
  const { boxRef, headRef, items, above, below, measure } = useVirtualRows('processes', rows.length, (i) =>
    rows[i].template === '' || rows[i].program !== '' ? 152 : 50,
  );
  const add = () =>
    change((m) => withRows(m, [...m.processes, blankProcess(freshName(m, (n) => t('editor.newProcess', { n })))]));
  return (
    <Section id="processes" title={t('editor.secProcesses')} testId="ed-processes">
      <div className="ed-vscroll" ref={boxRef} data-testid="process-scroll">
        <table className="ed-table">
          <thead ref={headRef}>
            <tr>
              <Head label={t('editor.pName')} name="name" />
              <Head label={t('editor.pThreads')} name="threads" />
              <Head label={t('editor.pProgram')} name="template / program" />
              <Head label={t('editor.pNice')} name="nice" />
              <Head label={t('editor.pPolicy')} name="sched_policy" />
              <Head label={t('editor.pRtPriority')} name="rt_priority" />
              <Head label={`${t('editor.pDlRuntime')} (µs)`} name="dl_runtime_us" />
              <Head label={`${t('editor.pDlDeadline')} (µs)`} name="dl_deadline_us" />
              <Head label={`${t('editor.pDlPeriod')} (µs)`} name="dl_period_us" />
              <Head label={t('editor.pDlReclaim')} name="dl_reclaim" />
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
          <Spacer height={above} span={COLUMNS} />
          {items.map(({ index: i, key }) => {
            const p = rows[i];
            return (
              <tbody key={key} data-index={i} ref={measure}>
                <ProcessRow
                  i={i}
                  p={p}
                  problems={rowProblems.get(i) ?? NO_ROW_PROBLEMS}
                  cgroupOptions={cgroupOptions}
                  identity={p.cgroup ? (identities.get(p.cgroup) ?? 'normal') : ''}
                />
              </tbody>
            );
          })}
          <Spacer height={below} span={COLUMNS} />
        </table>
      </div>
      <button type="button" className="ed-add" onClick={add} data-testid="add-process">
        + {t('editor.add')}
      </button>
    </Section>
  );
}
