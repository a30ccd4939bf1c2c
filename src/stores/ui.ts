// The page's own state: which dialogs and menus are open, and the notice
// under the controls (a search that found nothing, a cancelled run).
import { createStore } from './store';

export interface UiState {
  notice: string | null;
  help: boolean;
  editing: boolean;
  library: boolean;
  /** The header's menu on narrow screens: closed at first so the lab is on screen. */
  menuOpen: boolean;
}

export const createUiStore = () =>
  createStore<UiState>({ notice: null, help: false, editing: false, library: false, menuOpen: false });
