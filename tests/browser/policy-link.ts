// A share link to a scenario scheduled by a JavaScript policy, as someone
// sends one: the uniprocessor nice-levels preset, 200 ms, under `source`.
// The browser tests of hostile policies open these.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './harness';
import { encodeShare } from '../../src/share/share-link';

export function policyLink(labUrl: string, name: string, source: string): string {
  const s = JSON.parse(readFileSync(join(root, 'wasm-core', 'presets', 'cfs-nice-levels.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  s.name = name;
  s.duration_ms = 200;
  s.policy = { kind: 'ext', source };
  const made = encodeShare({
    scenario: JSON.stringify(s),
    view: { cursor: { event: 0, ns: 0 }, cpu: 0, colourBy: 'load', partner: '', lesson: null },
  });
  if (!made.ok) throw new Error('could not make the link');
  return `${labUrl}#${made.fragment}`;
}
