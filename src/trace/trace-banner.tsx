// What the lab says while a real trace is open: which trace, read how, that
// it is recorded (so play and stepping are off), that a share link cannot
// carry it (with the file to download instead), and how to compare it.
// Names from the trace are rendered as React text, never as markup.
import { useEffect, useMemo } from 'react';
import './trace.css';
import type { TraceInfo } from '../engine/real-run';
import { useT } from '../i18n/i18n';
import { shownText } from '../views/hidden-chars';

export interface OpenTrace {
  info: TraceInfo;
  file: File;
}

export function TraceBanner(props: { trace: OpenTrace; durationNs: number; onClose: () => void }) {
  const t = useT();
  const { info, file } = props.trace;
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <div className="trace-banner" data-testid="trace-banner">
      <p>
        <b>
          {t('trace.banner', {
            name: shownText(info.name),
            format: info.format,
            kernel: shownText(info.kernel),
            cpus: info.cpus,
            ms: (props.durationNs / 1e6).toFixed(1),
          })}
        </b>{' '}
        <button type="button" data-testid="trace-close" onClick={props.onClose}>
          {t('trace.close')}
        </button>
      </p>
      <p className="only-sim">{t('trace.recorded')}</p>
      <p className="only-sim">{t('trace.compareHint')}</p>
    </div>
  );
}

/** In place of the share link while a trace is open: why not, and the file. */
export function TraceShareNote(props: { file: File }) {
  const t = useT();
  const url = useMemo(() => URL.createObjectURL(props.file), [props.file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <span className="share-status refused" data-testid="trace-share" role="status">
      {t('trace.shareNo')}{' '}
      <a href={url} download={props.file.name} data-testid="trace-download">
        {t('trace.shareFile')}
      </a>
    </span>
  );
}

/** One line where a view needing the model's state would be. */
export function OnlySimulations(props: { what: string }) {
  const t = useT();
  return (
    <p className="only-sim" data-testid="only-sim">
      {t('trace.onlySim', { what: t(`trace.what.${props.what}`) })}
    </p>
  );
}
