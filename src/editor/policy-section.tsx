// The scheduling policy with its tunables and sched_features (or, for kind
// 'ext', the scheduler's own JavaScript), and the four Wasted Cores bug
// switches.
import { SCENARIO_VALUES } from '../engine/generated/scenario-keys';
import { useT } from '../i18n/i18n';
import { Field, Section, useForm, useTriOptions } from './field';
import { choices } from './engine-checks';
import { BUGS, FEATURES } from './scenario-form';
import { PolicySource } from './policy-source';
import { loadStarters } from './starter-picker';

// Linux 4.1's base values, shown as the defaults an empty field keeps.
const TUNABLES: [key: string, label: string, dflt: string][] = [
  ['sched_latency_us', 'editor.latency', '6'],
  ['sched_min_granularity_us', 'editor.minGran', '0.75'],
  ['sched_wakeup_granularity_us', 'editor.wakeupGran', '1'],
  ['sched_migration_cost_us', 'editor.migrationCost', '0.5'],
];

export function PolicySection() {
  const t = useT();
  const tri = useTriOptions();
  const { model, change } = useForm();
  const p = model.policy;
  // To 'ext' with no source: start from a starter; away from it: drop a source nobody edited (policy-starters.ts).
  const kindChanged = (kind: string) => {
    if (kind === 'ext' || p.source !== '' || p.watchdog_ms !== '')
      loadStarters().then(
        (s) => change((m) => s.afterKindChange(m)),
        () => undefined, // not loadable (offline): the source is typed by hand
      );
  };
  const c = choices();
  const tunablesSet = Object.entries(p.tunables).some(([k, v]) => k !== 'extra' && v !== '');
  const featuresSet = FEATURES.some((k) => p.features[k] !== '');
  return (
    <>
      <Section id="policy" title={t('editor.secPolicy')} testId="ed-policy">
        <div className="ed-row">
          <Field
            id="kernel"
            label={t('editor.kernel')}
            options={[
              ['', t('editor.default', { value: '4.1' })],
              ...SCENARIO_VALUES.scenario.kernel.map((k): [string, string] => [k, k]),
            ]}
          />
          <Field
            id="policy.kind"
            label={t('editor.kind')}
            options={[['', t('editor.default', { value: 'cfs' })], ...c.policies.map((k): [string, string] => [k, k])]}
            onEdit={kindChanged}
          />
          {(p.kind === 'dw-cfs' || p.alpha !== '' || p.beta !== '') && (
            <>
              <Field
                id="policy.alpha"
                label={t('editor.alpha')}
                options={[
                  ['', t('editor.default', { value: 'A' })],
                  ['A', 'A'],
                  ['B', 'B'],
                  ['C', 'C'],
                ]}
              />
              <Field id="policy.beta" label={t('editor.beta')} placeholder="1.1" width={60} />
            </>
          )}
          <Field id="policy.group_identity" label={t('editor.groupIdentity')} options={tri(false)} />
        </div>
        {(p.kind === 'ext' || p.source !== '' || p.watchdog_ms !== '') && <PolicySource />}
        <details className="ed-more" open={tunablesSet || undefined}>
          <summary>{t('editor.tunables')}</summary>
          <div className="ed-row">
            {TUNABLES.map(([k, label, dflt]) => (
              <Field
                key={k}
                id={`policy.tunables.${k}`}
                label={t(label)}
                unit="ms"
                fileUnit="µs"
                placeholder={dflt}
                width={70}
              />
            ))}
            <Field id="policy.tunables.sched_nr_latency" label={t('editor.nrLatency')} placeholder="8" width={50} />
            <Field
              id="policy.tunables.tunable_scaling"
              label={t('editor.scaling')}
              options={[
                ['', t('editor.default', { value: 'log' })],
                ['log', 'log'],
                ['none', 'none'],
              ]}
            />
          </div>
        </details>
        <details className="ed-more" open={featuresSet || undefined}>
          <summary>{t('editor.features')}</summary>
          <div className="ed-row">
            {FEATURES.map((k) => (
              <Field key={k} id={`policy.features.${k}`} label={k.toUpperCase()} options={tri(k !== 'next_buddy')} />
            ))}
          </div>
        </details>
      </Section>
      <Section title={t('editor.secBugs')} testId="ed-bugs">
        <div className="ed-row">
          <Field
            id="bugs"
            label={t('editor.bugsProfile')}
            options={[
              ['', t('editor.default', { value: 'linux-4.1' })],
              ...c.bug_profiles.map((b): [string, string] => [b, b]),
              ['switches', t('editor.bugsSwitches')],
            ]}
          />
          {model.bugs.profile === 'switches' &&
            BUGS.map((k) => (
              <Field
                key={k}
                id={`bugs.${k}`}
                label={t(`editor.bug.${k}`)}
                options={[
                  ['', t('editor.default', { value: t('editor.bugPresent') })],
                  ['true', t('editor.bugPresent')],
                  ['false', t('editor.bugFixed')],
                ]}
              />
            ))}
        </div>
      </Section>
    </>
  );
}
