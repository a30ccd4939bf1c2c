// Whether the lab's single-character shortcuts (t, b, m, v, r, ?, Space and
// the arrows) are on. WCAG 2.1.4: speech-input users may say words whose
// letters would set them off, so they can be turned off (help overlay), and
// the choice is remembered. Module state, read by the key handler at each key.
const KEY = 'schedlab.shortcuts';

let on = (() => {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
})();

export function shortcutsOn(): boolean {
  return on;
}

export function setShortcutsOn(v: boolean): void {
  on = v;
  try {
    localStorage.setItem(KEY, v ? 'on' : 'off');
  } catch {
    // Not remembered, but applied.
  }
}
