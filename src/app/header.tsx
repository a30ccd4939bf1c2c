// The page's banner: the brand and, folded behind a Menu button on narrow
// screens, two rows — what runs (scenario-pick.tsx) and how it is shown
// (lesson, exercise, share link, language).
import { ClassroomBar } from '../classroom/classroom-bar';
import { builtInByName, exerciseById, exerciseScenario } from '../classroom/exercises';
import { LANGS, isLang, useLang, useT } from '../i18n/i18n';
import { ShareBar } from '../share/share-bar';
import type { MadeLink } from '../share/use-share';
import { useStore } from '../stores/store';
import { TraceShareNote } from '../trace/trace-banner';
import { useLab } from './context';
import { ScenarioPick } from './scenario-pick';

export function Header(p: { made: MadeLink | null; makeLink: () => Promise<void> }) {
  const lab = useLab();
  const t = useT();
  const [lang, setLang] = useLang();
  const menuOpen = useStore(lab.ui, (s) => s.menuOpen);
  const trace = useStore(lab.scenario, (s) => s.trace);
  const lesson = useStore(lab.lesson, (s) => s.lesson);
  const scenarioName = useStore(lab.scenario, (s) => s.name);
  return (
    <header className="top">
      <div className="brand">
        <h1>schedlab</h1>
        {/* Narrow screens: the two rows fold behind this button (styles.css hides it on wide ones). */}
        <button
          type="button"
          className="menu-button"
          data-testid="menu-button"
          aria-expanded={menuOpen}
          aria-controls="lab-menu"
          onClick={() => lab.ui.set({ menuOpen: !menuOpen })}
        >
          <span aria-hidden="true">☰</span> {t('a11y.menu')}
        </button>
      </div>
      {/* Row 1: what runs (scenario, partner, library, editor, file); row 2: how it is shown (lesson, share, language). */}
      <nav id="lab-menu" className={menuOpen ? 'menu open' : 'menu'} aria-label={t('a11y.menuLabel')}>
        <ScenarioPick />
        <div className="top-row">
          <ClassroomBar
            lesson={lesson}
            setLesson={(l) => lab.lesson.set({ lesson: l })}
            exercise={builtInByName(scenarioName)?.id ?? ''}
            openExercise={(id) => {
              const e = exerciseById(id);
              if (e) void lab.load(exerciseScenario(e));
            }}
          />
          {trace ? <TraceShareNote file={trace.file} /> : <ShareBar made={p.made} onShare={() => void p.makeLink()} />}
          <label className="lang-pick">
            {t('app.language')}{' '}
            <select
              aria-label={t('aria.language')}
              data-testid="lang-pick"
              value={lang}
              onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}
            >
              {LANGS.map((l) => (
                <option key={l} value={l}>
                  {l === 'en' ? 'English' : '中文'}
                </option>
              ))}
            </select>
          </label>
        </div>
      </nav>
    </header>
  );
}
