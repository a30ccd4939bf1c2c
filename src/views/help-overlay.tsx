// The keyboard shortcuts, listed from the same table the key handler uses.
import { useEscape } from './use-escape';
import { SHORTCUTS, commandKey, shownKey } from './shortcuts';
import { useState } from 'react';
import { useT } from '../i18n/i18n';
import { setShortcutsOn, shortcutsOn } from './shortcut-setting';

export function HelpOverlay(props: { onClose: () => void }) {
  const { onClose } = props;
  const t = useT();
  useEscape(onClose);
  const [on, setOn] = useState(shortcutsOn);
  return (
    <div className="overlay" data-testid="help" role="dialog" aria-label={t('aria.shortcuts')} onClick={props.onClose}>
      <div className="overlay-box" onClick={(e) => e.stopPropagation()}>
        <header className="panel-head">
          <h2>{t('help.title')}</h2>
          <button className="close" onClick={props.onClose} aria-label={t('aria.close')} title={t('help.close')}>
            ×
          </button>
        </header>
        <table className="keys">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.command}>
                <td>
                  <kbd>{shownKey(s.label, t)}</kbd>
                </td>
                <td>{t(commandKey(s.command))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <label className="shortcuts-toggle">
          <input
            type="checkbox"
            data-testid="shortcuts-on"
            checked={on}
            onChange={(e) => {
              setShortcutsOn(e.target.checked);
              setOn(e.target.checked);
            }}
          />{' '}
          {t('help.shortcutsOn')}
        </label>
        <p className="hint">{t('help.hint')}</p>
      </div>
    </div>
  );
}
