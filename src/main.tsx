import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { LangProvider, initialLang, translate } from './i18n/i18n';
import { loadEngine } from './engine/engine';
import './styles.css';
import { registerOffline } from './offline';

const root = createRoot(document.getElementById('root') as HTMLElement);
loadEngine()
  .then(() =>
    root.render(
      <StrictMode>
        <LangProvider>
          <App />
        </LangProvider>
      </StrictMode>,
    ),
  )
  .catch((e: unknown) => {
    const msg = document.createElement('pre');
    msg.textContent = translate(initialLang(), 'app.engineFailed', { error: String(e) });
    document.body.append(msg);
  });

registerOffline();
