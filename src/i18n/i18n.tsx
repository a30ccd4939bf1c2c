// Interface languages. Every piece of interface text is looked up by key in
// the message catalogs (messages/*.ts, one per area so that areas can grow
// independently); scenario text (names, descriptions from files) is data and
// is never translated. The choice is remembered in localStorage.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export {
  LANGS,
  isLang,
  translate,
  type Catalog,
  type Lang,
  type Messages,
  type Translate,
  type Vars,
} from './translate';
import { isLang, translate, type Lang, type Translate, type Vars } from './translate';

const STORAGE_KEY = 'schedlab.lang';

/** The remembered language, else the browser's preference. */
export function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (isLang(saved)) return saved;
  } catch {
    // Storage can be disabled (private windows, sandboxed frames): fall through.
  }
  const nav = typeof navigator !== 'undefined' ? navigator.language : '';
  return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

interface LangState {
  lang: Lang;
  setLang: (l: Lang) => void;
}
const LangContext = createContext<LangState>({ lang: 'en', setLang: () => undefined });

export function LangProvider({ children, initial }: { children: ReactNode; initial?: Lang }) {
  const [lang, setLangState] = useState<Lang>(() => initial ?? initialLang());
  const setLang = useCallback((l: Lang) => {
    setLangState(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // Not remembered, but still switched.
    }
  }, []);
  useEffect(() => {
    // Screen readers and CJK font selection follow the page's language.
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  const value = useMemo(() => ({ lang, setLang }), [lang, setLang]);
  return <LangContext.Provider value={value}>{children}</LangContext.Provider>;
}

/** The current language and its setter. Components using it re-render on a switch, memoised or not. */
export function useLang(): [Lang, (l: Lang) => void] {
  const { lang, setLang } = useContext(LangContext);
  return [lang, setLang];
}

/** The translate function for the current language. */
export function useT(): Translate {
  const { lang } = useContext(LangContext);
  return useCallback((key: string, vars?: Vars) => translate(lang, key, vars), [lang]);
}
