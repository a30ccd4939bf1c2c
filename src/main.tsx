import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { LabContext } from './app/context';
import { Lab } from './app/lab';
import { installTestHook } from './app/test-hook';
import { LangProvider, initialLang, translate } from './i18n/i18n';
import { loadEngine } from './engine/engine';
import { EngineClient } from './engine/client';
import './styles.css';
import './layout.css';
import { registerOffline } from './offline';

const root = createRoot(document.getElementById('root') as HTMLElement);
// Simulations run in the engine worker; the page loads the module too, for
// the pure lookups it answers at once (preset texts, scenario validation).
const client = EngineClient.inWorker(new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' }));
loadEngine()
  .then(() => {
    const lab = new Lab(client);
    installTestHook(lab);
    lab.start();
    root.render(
      <StrictMode>
        <LangProvider>
          <LabContext value={lab}>
            <App />
          </LabContext>
        </LangProvider>
      </StrictMode>,
    );
  })
  .catch((e: unknown) => {
    const msg = document.createElement('pre');
    msg.textContent = translate(initialLang(), 'app.engineFailed', { error: String(e) });
    document.body.append(msg);
  });

registerOffline(async () => (await client.request<string[]>({ op: 'files' })).value);
