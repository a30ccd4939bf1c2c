// The keyboard shortcuts, listed from the same table the key handler uses.
import { useEffect } from 'react';
import { SHORTCUTS } from './shortcuts';

export function HelpOverlay(props: { onClose: () => void }) {
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="overlay" data-testid="help" role="dialog" aria-label="keyboard shortcuts" onClick={props.onClose}>
      <div className="overlay-box" onClick={(e) => e.stopPropagation()}>
        <header className="panel-head">
          <h2>Keyboard shortcuts</h2>
          <button className="close" onClick={props.onClose} aria-label="close">
            ×
          </button>
        </header>
        <table className="keys">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.command}>
                <td>
                  <kbd>{s.label}</kbd>
                </td>
                <td>{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint">Click the CPU lanes or the heatmap to jump to a time, forward or back; drag the lanes to pan, Ctrl+wheel or − / + to zoom. Esc closes this.</p>
      </div>
    </div>
  );
}
