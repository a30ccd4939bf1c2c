// The PNG / SVG export control in a view panel's header. It finds its panel
// from the DOM at click time (the section it sits in), so a view adds it
// with one line and no ref. Canvas views say in the tooltip that their SVG
// embeds the canvas as a picture.
import { useState } from 'react';
import { useT } from '../../i18n/i18n';
import { download, fileSlug, panelPng, panelSvg } from './compose';

export function ExportButtons(props: { name: string; canvas?: boolean }) {
  const t = useT();
  const [failed, setFailed] = useState<string | null>(null);
  const panelOf = (e: React.MouseEvent) => e.currentTarget.closest('.panel');
  const base = `schedlab-${fileSlug(props.name)}`;
  const png = async (e: React.MouseEvent) => {
    const panel = panelOf(e);
    setFailed(null);
    try {
      const blob = panel ? await panelPng(panel) : null;
      if (blob) download(blob, `${base}.png`);
      else setFailed(t('exports.nothing'));
    } catch (err) {
      setFailed(t('exports.failed', { error: err instanceof Error ? err.message : String(err) }));
    }
  };
  const svg = (e: React.MouseEvent) => {
    const panel = panelOf(e);
    const text = panel ? panelSvg(panel) : null;
    if (text) download(text, `${base}.svg`, 'image/svg+xml');
    else setFailed(t('exports.nothing'));
  };
  return (
    <span className="toggle export-buttons" role="group" aria-label={t('exports.viewAs')} data-export-skip="">
      {t('exports.export')}
      <button data-testid={`export-png-${props.name}`} title={t('exports.pngTip')} onClick={(e) => void png(e)}>
        PNG
      </button>
      <button
        data-testid={`export-svg-${props.name}`}
        title={props.canvas ? t('exports.svgCanvasTip') : t('exports.svgTip')}
        onClick={svg}
      >
        SVG
      </button>
      {failed !== null && (
        <span className="export-error" role="alert">
          {failed}
        </span>
      )}
    </span>
  );
}
