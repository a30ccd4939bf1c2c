// The run as a whole: name, description, seed, duration, tick rate, and the
// switches the file keeps at its top level (autogroups, NOHZ, the preemption
// model, the mutexes' protocol, sanity checker, scheduling costs).
import { SCENARIO_VALUES } from '../engine/generated/scenario-keys';
import { useT } from '../i18n/i18n';
import { Field, Section, useForm, useTriOptions } from './field';
import { COSTS, type CostName } from './scenario-form';

const COST_LABEL: Record<CostName, string> = {
  context_switch_ns: 'editor.costCs',
  wakeup_ipi_ns: 'editor.costIpi',
  migration_cold_ns: 'editor.costCold',
  migration_cold_remote_ns: 'editor.costColdRemote',
  smt_sibling_speed_pct: 'editor.costSmtSpeed',
  clone_ns: 'editor.costClone',
};

export function RunSection() {
  const t = useT();
  const tri = useTriOptions();
  const { model } = useForm();
  const sanity = model.sanity_checker.mode;
  return (
    <Section id="scenario" title={t('editor.secRun')} testId="ed-run">
      <div className="ed-row">
        <Field id="name" label={t('editor.name')} width={260} />
        <Field id="seed" label={t('editor.seed')} placeholder="1" width={110} />
        <Field id="duration_ms" label={t('editor.duration')} unit="ms" width={90} />
        <Field id="hz" label={t('editor.hz')} placeholder="250" unit="Hz" width={70} />
      </div>
      <Field id="description" label={t('editor.description')} multiline />
      <div className="ed-row">
        <Field id="autogroup" label={t('editor.autogroup')} options={tri(true)} />
        <Field id="nohz" label={t('editor.nohz')} options={tri(true)} />
        <Field
          id="preempt"
          label={t('editor.preempt')}
          options={[
            ['', t('editor.default', { value: 'voluntary' })],
            ...SCENARIO_VALUES.scenario.preempt.map((m): [string, string] => [m, m]),
          ]}
        />
        <Field
          id="mutex_protocol"
          label={t('editor.mutexProtocol')}
          options={[
            ['', t('editor.default', { value: 'none' })],
            ...SCENARIO_VALUES.scenario.mutex_protocol.map((m): [string, string] => [m, m]),
          ]}
        />
        <Field
          id="sanity_checker"
          label={t('editor.sanity')}
          options={[
            ['', t('editor.default', { value: '1000 / 100 ms' })],
            ['true', t('editor.on')],
            ['false', t('editor.off')],
            ['settings', t('editor.sanitySettings')],
          ]}
        />
        {sanity === 'settings' && (
          <>
            <Field id="sanity_checker.period_ms" label={t('editor.sanityPeriod')} unit="ms" width={70} />
            <Field id="sanity_checker.window_ms" label={t('editor.sanityWindow')} unit="ms" width={70} />
          </>
        )}
      </div>
      <details className="ed-more" open={COSTS.some((k) => model.costs[k] !== '') || undefined}>
        <summary>{t('editor.costs')}</summary>
        <div className="ed-row">
          {COSTS.map((k) =>
            k === 'smt_sibling_speed_pct' ? (
              // A speed, not a cost in time: a percentage in the form and the file alike.
              <Field key={k} id={`costs.${k}`} label={t(COST_LABEL[k])} unit="%" placeholder="100" width={60} />
            ) : (
              <Field
                key={k}
                id={`costs.${k}`}
                label={t(COST_LABEL[k])}
                unit="µs"
                fileUnit="ns"
                placeholder={t('editor.defaultPlain')}
                width={80}
              />
            ),
          )}
        </div>
      </details>
    </Section>
  );
}
