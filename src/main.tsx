import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { LabContext } from './app/context';
import { Lab } from './app/lab';
import { installTestHook } from './app/test-hook';
import { LangProvider } from './i18n/i18n';
import { EngineClient } from './engine/client';
import './styles.css';
import './layout.css';
import { registerOffline } from './offline';

const root = createRoot(document.getElementById('root') as HTMLElement);
// Simulations run in the engine worker, which loads the wasm module; the page
// loads its own copy only when the editor first opens (src/app/lab-head.tsx):
// the presets are data (src/engine/presets.ts), so a first visit downloads the
// module once, in the worker. A worker that breaks the protocol is replaced
// by a fresh one (src/engine/client.ts), hence a function that starts one.
const client = EngineClient.inWorker(() => new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' }));
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

registerOffline(async () => (await client.request<string[]>({ op: 'files' })).value);
