// The machine: a preset, or nodes × cores × SMT threads with an optional
// NUMA distance matrix edited as a grid.
import { useT } from '../i18n/i18n';
import { Field, Input, Messages, Section, useForm } from './field';
import { choices } from './engine-checks';
import type { FormModel, MachineForm } from './scenario-form';

const REMOTE = 20; // the engine's distance between nodes of a custom machine without a matrix

/** A square matrix of n nodes: the old cells kept, new ones 10 on the diagonal and 20 elsewhere. */
export function resizeDistance(d: string[][], n: number): string[][] {
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => d[i]?.[j] ?? (i === j ? '10' : String(REMOTE))),
  );
}

function withMachine(m: FormModel, machine: Partial<MachineForm>): FormModel {
  return { ...m, machine: { ...m.machine, ...machine } };
}

export function MachineSection() {
  const t = useT();
  const { model, change } = useForm();
  const m = model.machine;
  const machines = choices().machines;
  const custom =
    m.preset === '' && (m.nodes !== '' || m.cores_per_node !== '' || m.threads_per_core !== '' || !machines.length);
  const preset = machines.find((x) => x.name === m.preset);
  const nodes = custom ? Math.max(0, Math.min(64, Math.floor(Number(m.nodes || '1')) || 0)) : (preset?.nodes ?? 0);

  const toCustom = () =>
    change((f) => {
      const p = machines.find((x) => x.name === f.machine.preset) ?? machines[0];
      // The custom machine starts as the preset it replaces, distances included.
      return withMachine(f, {
        preset: '',
        nodes: String(p.nodes),
        cores_per_node: String(p.cores_per_node),
        threads_per_core: String(p.threads_per_core),
        distance: f.machine.distance ?? (p.nodes > 1 ? p.distance.map((r) => r.map(String)) : null),
      });
    });
  const toPreset = () =>
    change((f) =>
      withMachine(f, { preset: machines[0].name, nodes: '', cores_per_node: '', threads_per_core: '', distance: null }),
    );
  const resized = (n: string) =>
    change((f) => {
      const k = Math.floor(Number(n));
      const d = f.machine.distance;
      return d && Number.isInteger(k) && k >= 1 && k <= 64 ? withMachine(f, { distance: resizeDistance(d, k) }) : f;
    });
  const mirror = (i: number, j: number) => (v: string) =>
    change((f) => {
      const d = f.machine.distance?.map((r) => [...r]);
      if (!d || !d[j] || i === j) return f;
      d[j][i] = v;
      return withMachine(f, { distance: d });
    });

  return (
    <Section id="machine" title={t('editor.secMachine')} testId="ed-machine">
      <div className="ed-row">
        <label className="ed-radio">
          <input type="radio" name="machine-mode" checked={!custom} onChange={toPreset} /> {t('editor.machinePreset')}
        </label>
        <label className="ed-radio">
          <input type="radio" name="machine-mode" checked={custom} onChange={toCustom} data-testid="machine-custom" />{' '}
          {t('editor.machineCustom')}
        </label>
      </div>
      {!custom ? (
        <div className="ed-row">
          <Field
            id="machine.preset"
            label={t('editor.machinePreset')}
            options={machines.map((x) => [x.name, x.name])}
          />
          <Field
            id="machine.nodes_per_package"
            label={t('editor.nodesPerPackage')}
            placeholder={String(preset?.nodes_per_package ?? 1)}
            width={60}
          />
          {preset && (
            <span className="ed-note">
              {t('editor.machineShape', {
                nodes: preset.nodes,
                cores: preset.cores_per_node,
                threads: preset.threads_per_core,
                cpus: preset.nodes * preset.cores_per_node * preset.threads_per_core,
              })}
            </span>
          )}
        </div>
      ) : (
        <div className="ed-row">
          <Field id="machine.nodes" label={t('editor.nodes')} placeholder="1" width={60} onEdit={resized} />
          <Field id="machine.cores_per_node" label={t('editor.coresPerNode')} placeholder="1" width={60} />
          <Field id="machine.threads_per_core" label={t('editor.threadsPerCore')} placeholder="1" width={60} />
          <Field id="machine.nodes_per_package" label={t('editor.nodesPerPackage')} placeholder="1" width={60} />
        </div>
      )}
      {(custom || m.distance) && nodes >= 1 && (
        <div className="ed-distance">
          <label className="ed-radio">
            <input
              type="checkbox"
              checked={m.distance !== null}
              data-testid="distance-own"
              onChange={(e) =>
                change((f) =>
                  withMachine(f, {
                    distance: e.target.checked
                      ? resizeDistance(preset ? preset.distance.map((r) => r.map(String)) : [], nodes)
                      : null,
                  }),
                )
              }
            />{' '}
            {t('editor.distanceCustom')} <code>distance</code>
          </label>
          <Messages id="machine.distance" />
          {m.distance ? (
            <>
              <table className="ed-grid" aria-label={t('editor.distance')}>
                <thead>
                  <tr>
                    <th />
                    {m.distance.map((_, j) => (
                      <th key={j}>{j}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {m.distance.map((row, i) => (
                    <tr key={i}>
                      <th>{i}</th>
                      {row.map((_, j) => (
                        <td key={j}>
                          <Input
                            id={`machine.distance[${i}][${j}]`}
                            label={`distance ${i}→${j}`}
                            width={38}
                            onEdit={mirror(i, j)}
                          />
                          <Messages id={`machine.distance[${i}][${j}]`} />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="ed-note">{t('editor.distanceHint')}</p>
            </>
          ) : (
            <p className="ed-note">{t('editor.distanceDefault', { d: REMOTE })}</p>
          )}
        </div>
      )}
    </Section>
  );
}
