// The lab (lab.ts) for the components below the app, and its stores' parts.
import { createContext, useContext } from 'react';
import type { Lab } from './lab';

export const LabContext = createContext<Lab | null>(null);

export function useLab(): Lab {
  const lab = useContext(LabContext);
  if (!lab) throw new Error('useLab outside the lab');
  return lab;
}
