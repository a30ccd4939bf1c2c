// The scenario library: a dialog listing every built-in preset with our
// title, explanation and tags in the current language, and a search box.
// Clicking a card (or its Open button) loads the preset; clicking a tag
// searches for it. Esc or a click outside closes it.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PresetInfo } from '../engine/types';
import { useLang, useT } from '../i18n/i18n';
import { useEscape } from '../views/use-escape';
import { TAGS, type Tag } from './preset-notes';
import { libraryEntries, searchLibrary } from './search';

export function LibraryPanel(props: {
  presets: readonly PresetInfo[];
  current: string;
  onOpen: (name: string) => void;
  onClose: () => void;
}) {
  const { presets, current, onOpen, onClose } = props;
  const t = useT();
  const [lang] = useLang();
  const [query, setQuery] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const tagLabel = (tag: Tag) => t(`lib.tag.${tag}`);
  const entries = useMemo(() => libraryEntries(presets.map((p) => p.name)), [presets]);
  const shown = searchLibrary(entries, query, lang, tagLabel);
  useEffect(() => searchRef.current?.focus(), []);
  useEscape(onClose);
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="overlay-box library"
        data-testid="library"
        role="dialog"
        aria-label={t('lib.title')}
        onClick={(e) => e.stopPropagation()}
      >
        <header className="panel-head">
          <h2>{t('lib.title')}</h2>
          <span className="meta" data-testid="library-count">
            {t('lib.count', { shown: shown.length, total: entries.length })}
          </span>
          <button className="close" onClick={onClose} aria-label={t('lib.close')} title={t('lib.close')}>
            ×
          </button>
        </header>
        <input
          ref={searchRef}
          className="library-search"
          data-testid="library-search"
          type="search"
          placeholder={t('lib.search')}
          aria-label={t('lib.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ul className="library-list">
          {shown.map(({ name, note }) => (
            <li
              key={name}
              className={name === current ? 'library-card current' : 'library-card'}
              data-testid="library-card"
              data-preset={name}
            >
              <div className="library-card-head">
                <h3>{note.title[lang]}</h3>
                <code className="meta">{name}</code>
                {name === current ? (
                  <span className="meta">{t('lib.current')}</span>
                ) : (
                  <button data-testid="library-open" onClick={() => onOpen(name)}>
                    {t('lib.open')}
                  </button>
                )}
              </div>
              <p>{note.text[lang]}</p>
              <div className="library-tags">
                {note.tags.map((tag) => (
                  <button
                    key={tag}
                    className={`tag tag-${TAGS[tag]}`}
                    title={t(`lib.facet.${TAGS[tag]}`)}
                    onClick={() => setQuery(tagLabel(tag))}
                  >
                    {tagLabel(tag)}
                  </button>
                ))}
              </div>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="hint">{t('lib.none', { query })}</p>}
      </div>
    </div>
  );
}
