// Cgroups (cpu.shares, parent, Group Identity class, SMT expeller) and timed
// CPU hotplug events, each a table with rows added and removed (drawn a
// screenful at a time, virtual-rows.tsx).
import { useT } from '../i18n/i18n';
import { Input, Messages, Section, useForm, useTriOptions, type Option } from './field';
import { choices } from './engine-checks';
import type { CgroupForm, EventForm, FormModel } from './scenario-form';
import { Spacer, useVirtualRows } from './virtual-rows';

/** Past this many cgroups a parent is typed, not picked (a list of every cgroup in every row). */
const PARENT_LIST_MAX = 200;

function freshName(taken: string[], pattern: (n: number) => string): string {
  let n = taken.length + 1;
  while (taken.includes(pattern(n))) n++;
  return pattern(n);
}

function Cell({
  id,
  label,
  width,
  options,
  placeholder,
}: {
  id: string;
  label: string;
  width?: number;
  options?: Option[];
  placeholder?: string;
}) {
  return (
    <td>
      <Input id={id} label={label} width={width} options={options} placeholder={placeholder} />
      <Messages id={id} />
    </td>
  );
}

function RowMessages({ id, span }: { id: string; span: number }) {
  const { problemsAt } = useForm();
  if (problemsAt(id).length === 0) return null;
  return (
    <tr>
      <td colSpan={span}>
        <Messages id={id} />
      </td>
    </tr>
  );
}

export function CgroupTable() {
  const t = useT();
  const tri = useTriOptions();
  const { model, change } = useForm();
  const set = (rows: CgroupForm[]) => change((m: FormModel) => ({ ...m, cgroups: rows }));
  const add = () =>
    set([
      ...model.cgroups,
      {
        name: freshName(
          model.cgroups.map((g) => g.name),
          (n) => t('editor.newCgroup', { n }),
        ),
        shares: '',
        parent: '',
        identity: '',
        smt_expeller: '',
        extra: {},
      },
    ]);
  const identities: Option[] = [
    ['', t('editor.default', { value: 'normal' })],
    ...choices().identities.map((x): Option => [x, x]),
  ];
  const { boxRef, headRef, items, above, below, measure } = useVirtualRows('cgroups', model.cgroups.length, () => 36);
  const listParents = model.cgroups.length <= PARENT_LIST_MAX;
  return (
    <Section id="cgroups" title={t('editor.secCgroups')} testId="ed-cgroups">
      {model.cgroups.length > 0 ? (
        <div className="ed-vscroll" ref={boxRef}>
          <table className="ed-table">
            <thead ref={headRef}>
              <tr>
                <th>
                  {t('editor.gName')} <code>name</code>
                </th>
                <th>
                  {t('editor.gShares')} <code>shares</code>
                </th>
                <th>
                  {t('editor.gParent')} <code>parent</code>
                </th>
                <th>
                  {t('editor.gIdentity')} <code>identity</code>
                </th>
                <th>
                  {t('editor.gExpeller')} <code>smt_expeller</code>
                </th>
                <th />
              </tr>
            </thead>
            <Spacer height={above} span={6} />
            {items.map(({ index: i, key }) => {
              const g = model.cgroups[i];
              return (
                <tbody key={key} data-index={i} ref={measure}>
                  <tr data-testid={`cgroup-${i}`}>
                    <Cell id={`cgroups[${i}].name`} label={t('editor.gName')} width={100} />
                    <Cell id={`cgroups[${i}].shares`} label={t('editor.gShares')} width={70} placeholder="1024" />
                    <Cell
                      id={`cgroups[${i}].parent`}
                      label={t('editor.gParent')}
                      options={
                        listParents
                          ? [
                              ['', t('editor.none')],
                              ...model.cgroups.filter((_, k) => k !== i).map((x): Option => [x.name, x.name]),
                            ]
                          : undefined
                      }
                    />
                    <Cell id={`cgroups[${i}].identity`} label={t('editor.gIdentity')} options={identities} />
                    <Cell id={`cgroups[${i}].smt_expeller`} label={t('editor.gExpeller')} options={tri(false)} />
                    <td className="ed-actions">
                      <button
                        type="button"
                        title={t('editor.remove')}
                        aria-label={`${t('editor.remove')} ${g.name}`}
                        onClick={() => set(model.cgroups.filter((_, k) => k !== i))}
                      >
                        ✕
                      </button>
                    </td>
                  </tr>
                  <RowMessages id={`cgroups[${i}]`} span={6} />
                </tbody>
              );
            })}
            <Spacer height={below} span={6} />
          </table>
        </div>
      ) : (
        <p className="ed-note">{t('editor.noRows')}</p>
      )}
      <button type="button" className="ed-add" onClick={add}>
        + {t('editor.add')}
      </button>
    </Section>
  );
}

export function EventTable() {
  const t = useT();
  const { model, change } = useForm();
  const set = (rows: EventForm[]) => change((m: FormModel) => ({ ...m, events: rows }));
  const action = (e: EventForm) => (e.cpu_online !== '' && e.cpu_offline === '' ? 'online' : 'offline');
  const setAction = (i: number, a: string) =>
    set(
      model.events.map((e, k) =>
        k !== i
          ? e
          : a === 'online'
            ? { ...e, cpu_online: e.cpu_offline || e.cpu_online, cpu_offline: '' }
            : { ...e, cpu_offline: e.cpu_online || e.cpu_offline, cpu_online: '' },
      ),
    );
  const { boxRef, headRef, items, above, below, measure } = useVirtualRows('events', model.events.length, () => 36);
  return (
    <Section id="events" title={t('editor.secEvents')} testId="ed-events">
      {model.events.length > 0 ? (
        <div className="ed-vscroll" ref={boxRef}>
          <table className="ed-table">
            <thead ref={headRef}>
              <tr>
                <th>
                  {t('editor.eAt')} (ms) <code>at_ms</code>
                </th>
                <th>{t('editor.eAction')}</th>
                <th>
                  {t('editor.eCpu')} <code>cpu_offline / cpu_online</code>
                </th>
                <th />
              </tr>
            </thead>
            <Spacer height={above} span={4} />
            {items.map(({ index: i, key }) => {
              const a = action(model.events[i]);
              const cpuId = `events[${i}].cpu_${a}`;
              return (
                <tbody key={key} data-index={i} ref={measure}>
                  <tr data-testid={`event-${i}`}>
                    <Cell id={`events[${i}].at_ms`} label={t('editor.eAt')} width={70} />
                    <td>
                      <select
                        aria-label={t('editor.eAction')}
                        value={a}
                        onChange={(ev) => setAction(i, ev.target.value)}
                      >
                        <option value="offline">{t('editor.eOffline')}</option>
                        <option value="online">{t('editor.eOnline')}</option>
                      </select>
                    </td>
                    <Cell id={cpuId} label={t('editor.eCpu')} width={50} />
                    <td className="ed-actions">
                      <button
                        type="button"
                        title={t('editor.remove')}
                        aria-label={`${t('editor.remove')} ${i}`}
                        onClick={() => set(model.events.filter((_, k) => k !== i))}
                      >
                        ✕
                      </button>
                    </td>
                  </tr>
                  <RowMessages id={`events[${i}]`} span={4} />
                </tbody>
              );
            })}
            <Spacer height={below} span={4} />
          </table>
        </div>
      ) : (
        <p className="ed-note">{t('editor.noRows')}</p>
      )}
      <button
        type="button"
        className="ed-add"
        onClick={() => set([...model.events, { at_ms: '0', cpu_offline: '0', cpu_online: '', extra: {} }])}
      >
        + {t('editor.add')}
      </button>
    </Section>
  );
}
