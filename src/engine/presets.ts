// The built-in presets, as data: their list (name, title, description) is generated from the engine's own list
// (wasm-core/src/api/presets.rs, the CLI's; `npm run gen:types`, checked by `cargo test`), and their texts are the
// scenario files themselves, bundled as text. The page reads them without the wasm module, and the module does not
// carry them.
import type { PresetInfo } from './generated/engine';
import list from './generated/presets.json';

const texts = import.meta.glob<string>('../../wasm-core/presets/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Every built-in preset, in the CLI's order. */
export const PRESETS: readonly PresetInfo[] = list;

/** A preset's scenario text, exactly as its file holds it; throws for a name that is no preset. */
export function presetText(name: string): string {
  const text = texts[`../../wasm-core/presets/${name}.json`];
  if (text === undefined || !PRESETS.some((p) => p.name === name)) throw new Error(`unknown preset '${name}'`);
  return text;
}
